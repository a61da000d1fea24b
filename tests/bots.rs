//! The search bot: honest (it decides the same whatever lies where its seat cannot see),
//! reproducible from its seed, better than chance, and seated by `--bots`.

mod common;

use common::{global, load_rel, player_var};
use meeple::bots::{
    BotKind, BotSpec, GreedyBot, MctsBot, MctsConfig, Policy, RandomBot, DEFAULT_WORLDS,
};
use meeple::engine::{show, Game};
use meeple::ir::Value;
use std::sync::Arc;

fn program(path: &str) -> Arc<meeple::ir::Program> {
    Arc::new(load_rel(path, &[]).program.expect("checks"))
}

fn list(v: Value) -> Vec<Value> {
    match v {
        Value::List(xs) => xs.to_vec(),
        other => panic!("{other:?} is not a list"),
    }
}

fn written(game: &Game, values: &[Value]) -> String {
    let shown: Vec<String> = values
        .iter()
        .map(|v| show(game.program(), game.state(), v))
        .collect();
    format!("[{}]", shown.join(", "))
}

/// A game of Hidden Hands where P1 decides, and the same game with P2's first card and the
/// deck's first card swapped: nothing P1 can see differs.
fn twin_games() -> (Game, Game) {
    let program = program("tests/fixtures/info/hidden_hands.rules");
    let mut a = Game::new(program, 3, 11).expect("starts");
    let mut random: Vec<RandomBot> = (0..3).map(|s| RandomBot::new(11, s)).collect();
    // Play until P1 decides again, with cards in P2's hand and in the deck.
    for _ in 0..3 {
        let seat = a.to_decide().expect("not over");
        let i = random[seat as usize].pick(a.option_count(seat));
        a.play(seat, i).expect("legal");
    }
    while a.to_decide() != Some(0) {
        let seat = a.to_decide().expect("not over");
        a.play(seat, 0).expect("legal");
    }
    let mut hand = list(player_var(&a, 1, "hand"));
    let mut deck = list(global(&a, "deck"));
    assert!(!hand.is_empty() && !deck.is_empty(), "something to swap");
    assert_ne!(hand[0], deck[0]);
    std::mem::swap(&mut hand[0], &mut deck[0]);
    let mut b = a.clone();
    let (hand, deck) = (written(&b, &hand), written(&b, &deck));
    b.set_value("P2.hand", &hand).expect("sets");
    b.set_value("deck", &deck).expect("sets");
    assert_ne!(a.state(), b.state(), "the true states differ");
    assert_eq!(
        a.view(meeple::engine::Viewer::Player(0)),
        b.view(meeple::engine::Viewer::Player(0)),
        "but not as P1 sees them"
    );
    (a, b)
}

/// Every card of a Hidden Hands game, where it lies: the deck, the discard pile, each hand and
/// the slots' cards (face down or up), sorted.
fn every_card(game: &Game) -> Vec<Value> {
    let mut cards = list(global(game, "deck"));
    cards.extend(list(global(game, "discard")));
    for seat in 0..game.players() {
        cards.extend(list(player_var(game, seat, "hand")));
    }
    let slot = game
        .program()
        .kinds
        .iter()
        .position(|k| k.name == "slot")
        .expect("a kind slot");
    let table = &game.state().entities[slot];
    for i in 0..table.len() {
        let card = table.get(i, 1);
        if *card != Value::None {
            cards.push(card.clone());
        }
    }
    cards.sort();
    cards
}

#[test]
fn an_imagined_game_holds_every_card_once_and_shows_its_seat_what_the_game_shows() {
    // Cards hidden from P1 lie in lists (P2's and P3's hands, the deck) and, once placed face
    // down, in plain fields of slots: a redeal writes them all, each list keeping its length.
    let program = program("tests/fixtures/info/hidden_hands.rules");
    let mut game = Game::new(program, 3, 5).expect("starts");
    let place = |g: &mut Game, seat: u8| {
        common::play(g, seat, "place");
        let options = g.option_count(seat);
        g.play(seat, options - 1).expect("a card");
        g.play(seat, 0).expect("a claim");
    };
    for seat in 0..3 {
        place(&mut game, seat);
    }
    while game.to_decide() != Some(0) {
        let seat = game.to_decide().expect("not over");
        game.play(seat, 0).expect("legal");
    }
    let all = every_card(&game);
    assert_eq!(all.len(), 12);
    let seen = game.view(meeple::engine::Viewer::Player(0));
    let plan = game.redeal(0);
    let mut scratch = game.determinize(0, 1);
    let mut moved = 0;
    for seed in 0..20 {
        game.determinize_into(&plan, seed, &mut scratch);
        assert_eq!(every_card(&scratch), all, "seed {seed}: every card once");
        assert_eq!(
            scratch.view(meeple::engine::Viewer::Player(0)),
            seen,
            "seed {seed}: P1 sees what it saw"
        );
        for seat in 0..3 {
            assert_eq!(
                list(player_var(&scratch, seat, "hand")).len(),
                list(player_var(&game, seat, "hand")).len()
            );
        }
        if scratch.state() != game.state() {
            moved += 1;
        }
    }
    assert!(moved > 10, "the hidden cards move: {moved} of 20");
}

#[test]
fn imagined_games_depend_only_on_what_the_seat_can_see() {
    let (a, b) = twin_games();
    for seed in 0..20 {
        assert_eq!(
            a.determinize(0, seed).state(),
            b.determinize(0, seed).state(),
            "seed {seed}"
        );
    }
    // What P1 sees is never redealt.
    let imagined = a.determinize(0, 3);
    assert_eq!(player_var(&imagined, 0, "hand"), player_var(&a, 0, "hand"));
    assert_eq!(global(&imagined, "discard"), global(&a, "discard"));
}

#[test]
fn a_redeal_worked_out_once_imagines_the_same_games_and_is_never_used_on_another_position() {
    let (a, b) = twin_games();
    let plan = a.redeal(0);
    for seed in 0..10 {
        assert_eq!(
            a.determinize_by(&plan, seed).state(),
            a.determinize(0, seed).state(),
            "seed {seed}"
        );
    }
    // `b` holds other values where P1 cannot see: `a`'s plan would deal `a`'s cards into it.
    for seed in 0..10 {
        let imagined = b.determinize_by(&plan, seed);
        assert_eq!(
            imagined.state(),
            b.determinize(0, seed).state(),
            "seed {seed}"
        );
    }
    // A move changes the position: the plan is made again, not reused.
    let mut c = a.clone();
    let seat = c.to_decide().expect("not over");
    c.play(seat, 0).expect("legal");
    assert_eq!(
        c.determinize_by(&plan, 5).state(),
        c.determinize(0, 5).state()
    );
}

#[test]
fn an_imagined_game_copied_into_an_old_one_is_the_game_imagined_afresh() {
    let (a, b) = twin_games();
    let plan = a.redeal(0);
    // The scratch game starts as another position's imagined game, played on.
    let mut scratch = b.determinize(0, 99);
    for seed in 0..10 {
        a.determinize_into(&plan, seed, &mut scratch);
        let fresh = a.determinize_by(&plan, seed);
        assert_eq!(scratch.state(), fresh.state(), "seed {seed}");
        assert_eq!(scratch.to_decide(), fresh.to_decide(), "seed {seed}");
        assert_eq!(scratch.decisions(), fresh.decisions(), "seed {seed}");
        // Both play on alike: the same chance, the same options.
        let (mut x, mut y) = (scratch.clone(), fresh);
        for _ in 0..20 {
            let Some(p) = y.to_decide() else { break };
            assert_eq!(x.option_count(p), y.option_count(p), "seed {seed}");
            let pick = (seed as usize) % y.option_count(p);
            x.play(p, pick).expect("legal");
            y.play(p, pick).expect("legal");
        }
        assert_eq!(x.state(), y.state(), "seed {seed}");
        let Some(p) = scratch.to_decide() else {
            continue;
        };
        scratch.play(p, 0).expect("legal");
    }
}

#[test]
fn the_search_bot_moves_the_same_whatever_lies_where_it_cannot_see() {
    let (a, b) = twin_games();
    for seed in 1..=5 {
        let on_a = MctsBot::new(seed, 0, 150).decide(&a, 0);
        let on_b = MctsBot::new(seed, 0, 150).decide(&b, 0);
        assert_eq!(on_a, on_b, "seed {seed}");
    }
}

/// Games of Cheater's Game (seeds 1 to 10, 3 players) that `first` wins alone in seat 1
/// against two random bots.
fn wins_against_random(first: impl Fn(u64) -> Box<dyn Policy>) -> u32 {
    let program = program("rules/cheaters_game.rules");
    let mut wins = 0;
    for seed in 1..=10 {
        let mut game = Game::playout(program.clone(), 3, seed).expect("starts");
        let mut bots: Vec<Box<dyn Policy>> = vec![
            first(seed),
            Box::new(RandomBot::new(seed, 1)),
            Box::new(RandomBot::new(seed, 2)),
        ];
        while let Some(seat) = game.to_decide() {
            let i = bots[seat as usize].decide(&game, seat);
            game.play(seat, i).expect("legal");
        }
        if game.outcome().expect("over").winners == [0] {
            wins += 1;
        }
    }
    wins
}

#[test]
fn the_search_bot_wins_more_than_its_share_against_random_bots() {
    let wins = wins_against_random(|seed| Box::new(MctsBot::new(seed, 0, 60)));
    // Random play wins a third of the time; the search bot should win most games.
    assert!(wins >= 7, "the search bot won {wins} of 10");
}

#[test]
fn bots_are_seated_by_their_spec() {
    let spec = BotSpec::parse("1=mcts:2000,2=random").expect("parses");
    assert_eq!(spec.for_seat(0), Some(BotKind::mcts(2000)));
    assert_eq!(spec.for_seat(1), Some(BotKind::Random));
    assert_eq!(
        BotSpec::parse("mcts").expect("parses").all,
        Some(BotKind::mcts(1000))
    );
    for bad in ["mcts:0", "mcts:many", "clever"] {
        let e = BotSpec::parse(bad).expect_err(bad);
        assert!(e.to_string().contains("mcts"), "{bad}: {e}");
    }
}

#[test]
fn in_a_secret_choice_the_search_bot_weighs_its_own_options_even_when_an_earlier_seat_waits() {
    // P2 bids in secret while P1 has not yet: the highest last digit wins.
    let src = r#"
game "Bids" { players 2 }
player var bid: int = 0
flow {
  secretly each p in players choose b "Your bid" from [x + 10 * seat(p) for x in 1..5] then {
    p.bid = b
  }
}
score(p) = p.bid % 10
"#;
    let loaded = meeple::load::check_source("bids.rules", src);
    let program = Arc::new(loaded.program.expect("checks"));
    let game = Game::playout(program, 2, 1).expect("starts");
    assert_eq!(game.to_decide(), Some(0), "P1 comes first in seat order");
    assert_eq!(game.option_count(1), 5, "P2 may choose now too");
    let choice = MctsBot::new(1, 1, 200).decide(&game, 1);
    assert_eq!(game.option_label(1, choice).as_deref(), Some("25"));
}

#[test]
fn the_greedy_bot_and_a_search_that_stops_short_move_the_same_whatever_lies_where_they_cannot_see()
{
    let (a, b) = twin_games();
    let short = MctsConfig {
        iterations: 150,
        depth: Some(3),
        worlds: DEFAULT_WORLDS,
        random_playouts: false,
    };
    for seed in 1..=5 {
        let on_a = MctsBot::with_config(seed, 0, short).decide(&a, 0);
        let on_b = MctsBot::with_config(seed, 0, short).decide(&b, 0);
        assert_eq!(on_a, on_b, "mcts, seed {seed}");
        let on_a = GreedyBot::new(seed, 0).decide(&a, 0);
        let on_b = GreedyBot::new(seed, 0).decide(&b, 0);
        assert_eq!(on_a, on_b, "greedy, seed {seed}");
    }
}

#[test]
fn the_scores_of_a_game_under_way_are_the_rules_score_and_end_nothing() {
    let program = program("rules/cheaters_game.rules");
    let mut game = Game::playout(program, 3, 4).expect("starts");
    let mut scores = vec![99; 7];
    game.scores_now(&mut scores).expect("scores");
    assert_eq!(
        scores,
        [0, 0, 0],
        "nobody has a point before the first move"
    );
    let mut bot = RandomBot::new(4, 0);
    while let Some(seat) = game.to_decide() {
        let i = bot.pick(game.option_count(seat));
        game.play(seat, i).expect("legal");
        game.scores_now(&mut scores).expect("scores");
        assert!(game.outcome().is_none() || game.to_decide().is_none());
    }
    let outcome = game.outcome().expect("over");
    assert_eq!(scores, outcome.scores, "at the end: the outcome's scores");
}

#[test]
fn a_search_that_stops_short_and_the_greedy_bot_beat_random_bots() {
    let short = MctsConfig {
        iterations: 60,
        depth: Some(10),
        worlds: DEFAULT_WORLDS,
        random_playouts: false,
    };
    let wins = wins_against_random(|seed| Box::new(MctsBot::with_config(seed, 0, short)));
    // Random play wins a third of the time.
    assert!(wins >= 6, "the search bot won {wins} of 10");
    let wins = wins_against_random(|seed| Box::new(GreedyBot::new(seed, 0)));
    assert!(wins >= 4, "the greedy bot won {wins} of 10");
}

#[test]
fn greedy_and_a_search_depth_are_seated_by_their_spec() {
    let spec = BotSpec::parse("greedy,1=mcts:500:depth=40,2=mcts:depth=9").expect("parses");
    assert_eq!(spec.all, Some(BotKind::Greedy));
    let depth = |iterations, depth| {
        Some(BotKind::Mcts(MctsConfig {
            iterations,
            depth: Some(depth),
            worlds: DEFAULT_WORLDS,
            random_playouts: false,
        }))
    };
    assert_eq!(spec.for_seat(0), depth(500, 40));
    assert_eq!(spec.for_seat(1), depth(1000, 9));
    assert_eq!(
        spec.render(),
        "greedy,1=mcts:500:depth=40,2=mcts:1000:depth=9"
    );
    assert_eq!(
        BotSpec::parse("mcts").expect("parses").all,
        depth(1000, 30),
        "thirty decisions unless told"
    );
    let end = BotSpec::parse("mcts:200:depth=end").expect("parses");
    assert_eq!(end.render(), "mcts:200:depth=end");
    assert_eq!(
        end.all,
        Some(BotKind::Mcts(MctsConfig {
            iterations: 200,
            depth: None,
            worlds: DEFAULT_WORLDS,
            random_playouts: false,
        }))
    );
    let random = BotSpec::parse("mcts:200:playout=random").expect("parses");
    assert_eq!(random.render(), "mcts:200:playout=random");
    assert!(matches!(
        random.all,
        Some(BotKind::Mcts(MctsConfig {
            random_playouts: true,
            ..
        }))
    ));
    assert_eq!(
        BotSpec::parse("mcts:200:playout=goal")
            .expect("parses")
            .render(),
        "mcts:200",
        "playouts follow a declared goal unless told"
    );
    for bad in [
        "mcts:10:playout=smart",
        "mcts:10:depth=0",
        "mcts:10:depth=x",
        "mcts:10:deep=3",
        "greedy:3",
    ] {
        let e = BotSpec::parse(bad).expect_err(bad);
        assert!(e.to_string().contains("mcts"), "{bad}: {e}");
    }
}

/// Games of One Clue (seeds 1 to 20) with the search bot in both seats: how many times P1
/// told, and the team's goal summed over the games.
fn one_clue(text: &str) -> (u32, i64) {
    let program = Arc::new(
        meeple::load::check_source("one_clue.rules", text)
            .program
            .expect("checks"),
    );
    let (mut told, mut total) = (0, 0);
    let mut goals = Vec::new();
    for seed in 1..=20 {
        let mut game = Game::playout(program.clone(), 2, seed).expect("starts");
        let mut bots: Vec<MctsBot> = (0..2).map(|s| MctsBot::new(seed, s, 200)).collect();
        while let Some(seat) = game.to_decide() {
            let i = bots[seat as usize].decide(&game, seat);
            game.play(seat, i).expect("legal");
        }
        if global(&game, "told") != Value::Int(0) {
            told += 1;
        }
        game.goals_now(&mut goals).expect("goals");
        total += goals[0];
    }
    (told, total)
}

#[test]
fn the_search_bot_expects_its_partner_to_act_on_what_it_was_told_where_the_rules_say_so() {
    let text = std::fs::read_to_string(common::root().join("tests/fixtures/bots/one_clue.rules"))
        .expect("reads");
    // With `prefer`, P1 imagines a P2 who names what it was told: telling (2 points) beats
    // a guess in the dark (1 on average), and P2, told, names it.
    assert_eq!(one_clue(&text), (20, 40));
    // Without it, P1 imagines a P2 who plays its imagined games knowing its number, so
    // telling looks like a point thrown away.
    let without: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("prefer"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(without, text);
    let (told, _) = one_clue(&without);
    assert!(
        told <= 5,
        "P1 told in {told} of 20 games without a preference"
    );
}
