//! Compiled expressions (`engine::compile`, from the roots `ir::roots` numbers when a file is
//! loaded) change nothing but speed: every rules file plays the same games when every
//! expression is walked instead (by the reference walker, `engine::reference`, which only
//! test builds contain); a rule that runs out of its work budget fails at the same place; and
//! a rule that fails at run time fails with the same error at the same span.

mod common;

use common::{all_rules, load_rel, rel};
use meeple::engine::{on_the_spot, Game, Viewer};
use meeple::ir::roots::{clear_roots, number_roots};
use meeple::ir::{Program, Value};
use meeple::load::check_source;
use meeple::sim::random_game;
use std::sync::Arc;

const SEEDS: u64 = 5;

/// The same program with no root numbered: every expression is walked.
fn walked(program: &Program) -> Arc<Program> {
    let mut p = program.clone();
    clear_roots(&mut p);
    Arc::new(p)
}

#[test]
fn every_rules_file_plays_the_same_games_walked() {
    let mut games = 0;
    for path in all_rules() {
        let name = rel(&path);
        let program = load_rel(&name, &[])
            .program
            .expect("every rules file checks");
        let roots = number_roots(&mut program.clone());
        assert!(roots > 10, "{name}: only {roots} roots numbered");
        let plain = walked(&program);
        let program = Arc::new(program);
        for players in program.min_players..=program.max_players {
            for seed in 1..=SEEDS {
                let at = format!("{name}, {players} players, seed {seed}");
                let before = on_the_spot();
                let a = random_game(program.clone(), players, seed).expect("plays");
                // Every expression played or shown is a root or inside one: none compiled on
                // the spot.
                let views: Vec<String> = (0..players)
                    .map(Viewer::Player)
                    .chain([Viewer::Spectator, Viewer::Referee])
                    .map(|v| a.view(v))
                    .collect();
                assert_eq!(on_the_spot(), before, "{at}: an expression is no root");
                let b = random_game(plain.clone(), players, seed).expect("plays");
                assert_eq!(a.history(), b.history(), "{at}");
                assert_eq!(a.outcome(), b.outcome(), "{at}");
                assert_eq!(a.state(), b.state(), "{at}");
                assert_eq!(a.log(Viewer::Spectator), b.log(Viewer::Spectator), "{at}");
                let plain_views: Vec<String> = (0..players)
                    .map(Viewer::Player)
                    .chain([Viewer::Spectator, Viewer::Referee])
                    .map(|v| b.view(v))
                    .collect();
                assert_eq!(views, plain_views, "{at}");
                games += 1;
            }
        }
    }
    assert!(games > 50, "only {games} games compared");
}

const COSTLY: &str = r#"
game "Costly" { players 2 }
player var hand: list of int = []
player var ready: bool = true
player var points: int = 3
kind cube[4] { weight: int = index  heavy: bool = index > 2  tags: list of int = [index]  twin: int = 2 }
table chart(pays: int, again: bool) { (1, false), (2, true), (3, false) }
def heavy(p: player): int = sum(x * x + 1 for x in p.hand where x % 3 != 1) - count(p.hand)
def c_weight(c: cube): int = max([c.weight, 0])
flow {
  for p in players { p.hand = 1..300 }
  repeat 40 {
    let w = heavy(first(players)) + sum(c.weight for c in cube where c.weight > 1)
    if any(c in cube where c.weight == w) and not (w < 0) { let v = -w }
    let f = first([c.weight * 2 for c in cube where c.weight > 1], 0) + last([c in cube where c.weight < 3]).weight
    let m = count(x in first(players).hand where x == w) + count([x in first(players).hand where 5 != x])
    let n = first([x in last(players).hand where x == 290], 0) + last([x in last(players).hand where x == m], 0)
    let table = [3, 1, 4, 1, 5]
    table += n
    let t = nth([10, 20, 30], 2) + count(table) + count([x in [1, 2, 3, 4] where x > 2])
    let nested = count(first([[], [1, 2], [3]])) + count(nth([[5], [1, 2], [3]], 2))
    table[2] = clamp(w, 0, 9)
    table[1] += count(table)
    let fp = first(players)
    fp.hand[3] -= 1
    let out = pop table at 2
    remove table at count(table)
    table += out
    let indexed = table[2] + [10, 20, 30][count(players)] + first(players).hand[3] + count([[5], [1, 2]][2])
    let g = count(c in cube where c.weight == w) + count([c in cube where c.weight != 2])
    let h = first([c in cube where t == c.weight], first(cube)).weight + g
    let k = count(c in cube where c.heavy and c.weight >= 2) + count([c in cube where not c.heavy or t in c.tags])
    if all(c in cube where c.weight < 100 and (w == c.weight or not c.heavy)) { let z = k }
    let q = first([c in cube where c.heavy and c.weight != w], first(cube)).weight + h
    let seats = count(p in players where p.ready and p.points > 1) + count([p in players where p.points == q])
    let who = first([p in players where p.points == seats], first(players))
    if any(p in players where not p.ready or q in p.hand) and all(p in players where 3 != p.points) { let y = who }
    let d = last(cube)
    let e = min([w, t, 3]) + max([g, h, c_weight(d)]) - min([heavy(last(players)), 2])
    for c in cube where c.heavy and c.weight >= 2 { let z = c.weight + e }
    for c in cube where c.weight > 100 or c.weight == w { let z = c.weight }
    for c in [d, first(cube), d] where not c.heavy { let z = c }
    for c in cube where c.weight != c.twin and c.twin == 2 { let z = c }
    let twins = count(c in cube where c.twin == c.weight or c.heavy) + count([c in cube where c.weight != c.twin])
    let tagged = count(c in cube where count(c.tags) >= 1 and count(c.tags) != w) + count([c in cube where count(c.tags) == count(d.tags)])
    if any(c in cube where count(c.tags) < t or count(c.tags) > count(d.tags)) and all(c in cube where count(c.tags) <= tagged) { let u = tagged }
    let picked = [c.weight for c in cube where c.heavy or c.twin == 2] + [c.twin for c in [d, d] where c.weight > t]
    let seated = count(c in cube where c.twin == who.points or c.weight != who.points) + sum(c.weight for c in cube where who.points == c.twin)
    let mapped = sum(c.twin for c in cube where not c.heavy and c.weight >= 0) + sum(c.weight for c in [d] where c.heavy) + sum(c.weight for c in cube) + count([c.twin for c in [d, first(cube)]])
    let orders = count(sorted(c in cube where c.weight > 0 by -c.twin, c.weight)) + first(sorted(x in first(players).hand where x > w by -x, x % 7), 0)
    let cells = nth(chart, count(players)).pays + nth(chart, 1 + w % 3).pays + (by players { 2: 5, 3..4: 1 }) + count([c in cube where nth(chart, 1 + c.weight % 3).again])
    let extremes = min(c.weight for c in cube where c.weight > 1) + max(first(players).hand) + min([c.weight for c in cube where c.weight > 9], 0) + max(x for x in table where x > w, -1)
    let ends = first(first(players).hand, 0) + last(table, 0) + first([x * 2 for x in table], 1) + last(drop(table, 99), 7)
    let ranks = count(top(c in cube where c.weight > 0 by c.twin, c.weight)) + count(bottom(p in players by p.points, count(p.hand))) + count(top(x in first(players).hand where x > 290 by x % 3))
  }
}
"#;

/// A game of two players started from `source`, compiled and walked.
fn started_both_ways(name: &str, source: &str) -> [Game; 2] {
    let program = check_source(name, source).program.expect("checks");
    let plain = walked(&program);
    [Arc::new(program), plain].map(|p| Game::new(p, 2, 1).expect("runs"))
}

/// A list of whole numbers.
fn ints(xs: &[i64]) -> Value {
    Value::List(xs.iter().map(|&x| Value::Int(x)).collect())
}

use common::start_with_budget as start;

/// The least work budget with which the game starts (found by halving).
fn least_budget(program: &Arc<Program>) -> u64 {
    let need = (1..40)
        .map(|k| k * 20_000)
        .find(|&b| start(program, b).is_ok())
        .expect("some budget suffices");
    let (mut low, mut high) = (need - 20_000, need);
    while high - low > 1 {
        let mid = (low + high) / 2;
        if start(program, mid).is_ok() {
            high = mid;
        } else {
            low = mid;
        }
    }
    high
}

#[test]
fn a_local_read_by_a_statement_spends_what_any_read_spends() {
    // A statement reads a local (`let`, the instance of a field it sets, an effect's argument)
    // without an evaluator: it must spend what reading a global or a constant through one
    // spends (nothing: a node costs nothing), so that a game runs out of budget alike.
    let game = |body: &str| {
        let source = format!(
            "game \"Reads\" {{ players 2 }}\n\
             kind cube[2] {{ weight: int = index }}\n\
             var held: cube = none\n\
             effect weigh(c: cube, w: int) {{ c.weight = w }}\n\
             flow {{\n  held = first(cube)\n  let c = held\n  let one = 1\n  \
             repeat 500 {{ {body} }}\n}}\n"
        );
        let program = check_source("reads.rules", &source)
            .program
            .unwrap_or_else(|| panic!("{body}: checks"));
        least_budget(&Arc::new(program))
    };
    let through_a_local = game("let x = c\n c.weight = 2\n weigh(c, one)");
    let through_others = game("let x = held\n held.weight = 2\n weigh(held, 1)");
    assert_eq!(through_a_local, through_others);
}

#[test]
fn work_is_charged_where_it_repeats_not_for_each_node() {
    // An expression's nodes cost nothing (its size is bounded by the checker): a larger one
    // needs the same budget. A call, and each element a query or a `for` visits, costs a unit.
    let need = |decls: &str, body: &str| {
        let source = format!(
            "game \"Work\" {{ players 2 }}\nvar n: int = 0\nvar xs: list of int = [1, 2, 3, 4]\n\
             {decls}\nflow {{\n  repeat 100 {{ {body} }}\n}}\n"
        );
        let program = check_source("work.rules", &source)
            .program
            .unwrap_or_else(|| panic!("{body}: checks"));
        let compiled = least_budget(&Arc::new(program.clone()));
        assert_eq!(compiled, least_budget(&walked(&program)), "{body}");
        compiled
    };
    let small = need("", "n = 1");
    assert_eq!(
        need("", "n = ((1 + 2) * 3 - 8) * (if n >= 0 then 1 else 2)"),
        small
    );
    // Recursive, so that it is not inlined: `down(k)` calls itself `k` times.
    let def = "def down(x: int): int = if x <= 0 then 0 else down(x - 1)";
    assert_eq!(need(def, "n = down(0)"), small + 100);
    assert_eq!(need(def, "n = down(2)"), small + 300);
    assert_eq!(need("", "n = count(x in xs where x > 2)"), small + 400);
    assert_eq!(
        need("", "n = count(x in xs where x > 2 and x != 7)"),
        small + 400
    );
    // A `for` statement and its element's pass: the four elements, and the one pass per
    // element that passes.
    let looped = need("", "for x in xs where x > 3 { }");
    assert_eq!(need("", "for x in xs where x > 3 and x != 7 { }"), looped);
    assert_eq!(need("", "for x in xs where x > 2 { }"), looped + 100);
}

#[test]
fn compiled_code_spends_the_work_the_walker_spends() {
    let program = check_source("costly.rules", COSTLY)
        .program
        .expect("checks");
    let plain = walked(&program);
    let program = Arc::new(program);
    // Budgets a unit apart around where the game's need lies fail alike, at the same place:
    // so compiled code spends what the walker spends, call by call and element by element.
    let high = least_budget(&plain);
    let low = high - 1;
    let need = high;
    for budget in [1_000, low - 1000, low - 1, low, high, high + 1, need * 2] {
        assert_eq!(
            start(&program, budget),
            start(&plain, budget),
            "budget {budget} (the walker needs {high})"
        );
    }
    assert!(start(&program, low).is_err() && start(&program, high).is_ok());
}

#[test]
fn first_and_last_of_a_comprehension_stop_at_the_element_they_give() {
    // The elements past the one found are never visited: here they would divide by zero.
    let source = r#"
game "Lazy" { players 2 }
kind cube[3] { weight: int = index }
var found: int = 0
flow {
  found = first([c in cube where 10 / (3 - c.weight) > 0]).weight * 10
  found += last([c.weight for c in cube where 10 / (c.weight - 1) > 0])
  found += first([c in cube where c.weight > 5], first(cube)).weight * 100
}
"#;
    let program = check_source("lazy.rules", source).program.expect("checks");
    let plain = walked(&program);
    for p in [Arc::new(program), plain] {
        let game = Game::new(p, 2, 1).expect("plays without reaching the division by zero");
        assert_eq!(common::global(&game, "found"), meeple::ir::Value::Int(113));
    }
}

#[test]
fn assignments_write_every_kind_of_place_within_its_bounds() {
    // Places known when compiling (a global, a local, a variable of the seat or instance in a
    // local) and places found when running (an instance a call gives) write alike, bounded
    // numbers clamped, lists and numbers alike.
    let source = r#"
game "Places" { players 2 }
kind cube[3] { weight: int in 0..10 = index  tags: list of int = [] }
var heavy: cube = none
var total: int in -5..100 = 0
var seen: list of int = []
player var coins: int in 0..6 = 2
flow {
  let c = first(cube)
  c.weight += 20
  c.tags += 4
  c.tags += [5, 6]
  c.tags -= 5
  heavy = last(cube)
  heavy.weight -= 9
  for p in players {
    p.coins += 7
  }
  let p = last(players)
  p.coins -= 3
  let n = 1
  n += 41
  total = n
  total -= 90
  seen = c.tags
  seen += [c.weight, heavy.weight]
}
"#;
    for game in started_both_ways("places.rules", source) {
        assert_eq!(common::global(&game, "total"), Value::Int(-5));
        assert_eq!(common::global(&game, "seen"), ints(&[4, 6, 10, 0]));
        assert_eq!(common::player_int(&game, 0, "coins"), 6);
        assert_eq!(common::player_int(&game, 1, "coins"), 3);
    }
}

#[test]
fn a_list_of_constant_lists_is_made_once_and_each_use_starts_from_it() {
    // `[[1, 2], [3]]` is made when compiling and shared by every run of the statement: a
    // write to it (or to a list in it) copies it first, so the next pass starts from the
    // literal again; and it spends what the walker spends making it (nothing: its size is
    // bounded by the checker), checked by budget in `compiled_code_spends_the_work_the_walker_spends`.
    let source = r#"
game "Nested" { players 2 }
var total: int = 0
var last_seen: list of list of int = []
flow {
  repeat 3 {
    let grid = [[1, 2], [3]]
    grid += [[4, 5, 6]]
    let row = first(grid)
    row += 9
    total += count(grid) * 10 + count(first(grid)) + count(row)
    last_seen = grid
  }
  let again = [[1, 2], [3]]
  total += count(first(again)) * 1000
}
"#;
    for game in started_both_ways("nested.rules", source) {
        // Each pass: 3 rows (30), the first still 2 long (2), the copy 3 long (3).
        assert_eq!(common::global(&game, "total"), Value::Int(3 * 35 + 2000));
        assert_eq!(
            common::global(&game, "last_seen"),
            Value::List(
                [ints(&[1, 2]), ints(&[3]), ints(&[4, 5, 6])]
                    .into_iter()
                    .collect()
            )
        );
    }
}

#[test]
fn a_rule_that_fails_fails_alike_compiled_and_walked() {
    let failing = [
        (
            "division-by-zero",
            "let x = count(players) / (me_count() - 2)",
        ),
        (
            "no-value",
            "let x = first([c in cube where c.weight > 9]).weight",
        ),
        (
            "no-value",
            "let x = first([c.weight for c in cube where c.weight > 9]) + 1",
        ),
        ("overflow", "let x = 9223372036854775807 + count(players)"),
        ("out-of-range", "let x = nth([1, 2], count(players) + 1)"),
        ("out-of-range", "let x = [1, 2][count(players) + 1]"),
        ("out-of-range", "let xs = [1, 2]\n  xs[count(players) + 1] = 3"),
        ("out-of-range", "let xs = [1, 2]\n  xs[count(players) - 2] += 3"),
        ("overflow", "let xs = [9223372036854775807]\n  xs[1] += count(players)"),
        ("out-of-range", "let xs = [1, 2]\n  let x = pop xs at count(players) + 1"),
        ("out-of-range", "let xs = [1, 2]\n  remove xs at count(players) - 2"),
        ("out-of-range", "let x = [c.weight for c in cube][count(players) - 2]"),
        (
            "no-value",
            "if max([c.weight for c in cube where c.weight > 9]) > 1 { }",
        ),
        ("call-depth", "let x = deep(1)"),
        ("out-of-range", "let x = nth(chart, count(players) + 1).pays"),
        (
            "no-value",
            "let x = sorted(c in cube by c.weight, first([c.weight for c in cube where c.weight > 9]))",
        ),
        (
            "no-value",
            "let x = min([c.weight for c in cube where c.weight > 9] + [first([c.weight for c in cube where c.weight > 9])], 0)",
        ),
        // The sum of a local's list, read where it lies, with a `none` among its numbers.
        (
            "no-value",
            "let xs = [1, first([c.weight for c in cube where c.weight > 9])]\n  let x = sum(xs)",
        ),
        // A key of `top` or `bottom` that fails, read only for the elements still tied.
        (
            "no-value",
            "let x = top(c in cube by c.weight - c.weight, first([c.weight for c in cube where c.weight > 9]))",
        ),
        (
            "division-by-zero",
            "let x = bottom(p in players by 1, count(players) / (me_count() - 2))",
        ),
        // The least or greatest of a list written out: a `none` among its numbers fails, but
        // only once every element has been evaluated, as when the list is built first.
        (
            "no-value",
            "let x = max([1, first([c.weight for c in cube where c.weight > 9])])",
        ),
        (
            "division-by-zero",
            "let x = min([first([c.weight for c in cube where c.weight > 9]), 1 / (me_count() - 2)])",
        ),
        // A field compared where it lies, of a list holding `none`: the general path fails.
        (
            "no-value",
            "let w = me_count()\n  let x = count(c in [first(cube), none] where c.weight == w)",
        ),
        (
            "no-value",
            "let x = first([c in [none, first(cube)] where c.weight == 1])",
        ),
        // A filter of fields run in one loop meets what it cannot read: the general path fails.
        (
            "no-value",
            "let x = any(c in [first(cube), none] where c.weight > 5 or c.weight < 0)",
        ),
        (
            "no-value",
            "let w = first([c.weight for c in cube where c.weight > 9])\n  let x = count(c in cube where c.weight >= w and c.weight > 0)",
        ),
        // A `for` whose filter tests the element's fields, past an element that is `none`.
        (
            "no-value",
            "for c in [first(cube), none, last(cube)] where c.weight >= 0 and not c.heavy { let z = c }",
        ),
        // A comparison with a constant, and `not`, read in one closure: of `none`.
        (
            "no-value",
            "let c = first([c in cube where c.weight > 9])\n  let x = c.weight > 3",
        ),
        (
            "no-value",
            "let c = first([c in cube where c.weight > 9])\n  let x = not c.heavy",
        ),
        // An assignment to a field of the instance in a local that holds `none`, and a number
        // that overflows where it is written.
        (
            "no-value",
            "let c = first([c in cube where c.weight > 9])\n  c.weight = 1",
        ),
        (
            "overflow",
            "let c = first(cube)\n  c.weight = 9223372036854775807\n  c.weight += count(players)",
        ),
        // A field filter and a map of a field in one loop: a sum that overflows fails at the
        // element it fails at; an element that is `none` goes the general way.
        (
            "overflow",
            "let c = last(cube)\n  c.weight = 9223372036854775807\n  let x = sum(d.weight for d in cube where not d.heavy or d.weight > 1)",
        ),
        (
            "no-value",
            "let x = [c.weight for c in [first(cube), none] where c.weight >= 0 or c.heavy]",
        ),
        (
            "no-value",
            "let x = sum(c.weight for c in [first(cube), none])",
        ),
        // A field compared with a variable of the seat in a local that holds `none`.
        (
            "no-value",
            "let nobody = first([p in players where count(players) > 9])\n  let x = count(c in cube where c.weight == nobody.points)",
        ),
        // `first` stops at the first element that passes, but not before an error.
        (
            "division-by-zero",
            "let x = first([c in cube where 10 / (c.weight - 1) > 0])",
        ),
    ];
    for (code, stmt) in failing {
        let source = format!(
            r#"
game "Failing" {{ players 2 }}
kind cube[3] {{ weight: int = index  heavy: bool = false }}
table chart(pays: int, again: bool) {{ (1, false), (2, true) }}
player var points: int = 0
def me_count(): int = count(players)
def deep(n: int): int = if n > 1000 then 0 else deep(n + 1) + 1
flow {{
  {stmt}
}}
"#
        );
        let loaded = check_source("failing.rules", &source);
        let program = loaded.program.unwrap_or_else(|| panic!("{stmt} checks"));
        let plain = walked(&program);
        let program = Arc::new(program);
        let before = on_the_spot();
        let (Err(a), Err(b)) = (Game::new(program, 2, 1), Game::new(plain, 2, 1)) else {
            panic!("{stmt} should fail both ways");
        };
        assert_eq!(a.code, code, "{stmt}: {a:?}");
        assert_eq!(on_the_spot(), before, "{stmt}: an expression is no root");
        assert_eq!(
            (a.code, a.span, a.message.clone()),
            (b.code, b.span, b.message.clone()),
            "{stmt}"
        );
    }
}

#[test]
fn a_list_of_constants_written_to_is_copied_not_changed_for_the_next_time() {
    // The compiled list of constants is made once and shared: a write must copy it.
    let source = r#"
game "Constants" { players 2 }
var total: int = 0
flow {
  repeat 3 {
    let xs = [1, 2]
    xs += 5
    total += count(xs) * 10 + last(xs)
    let xss = [[1], []]
    xss += [7]
    total += count(xss) * 1000
  }
}
"#;
    let program = check_source("constants.rules", source)
        .program
        .expect("checks");
    let plain = walked(&program);
    for p in [Arc::new(program), plain] {
        let game = Game::new(p, 2, 1).expect("plays");
        assert_eq!(common::global(&game, "total"), meeple::ir::Value::Int(9105));
    }
}

#[test]
fn the_least_and_greatest_of_a_list_written_out_are_the_same_compiled_and_walked() {
    // Huge numbers are compared, never summed: no overflow either way.
    let source = r#"
game "Extremes" { players 2 }
var got: list of int = []
def least(a: int, b: int): int = min([a, b, 5])
flow {
  let n = count(players)
  got = [min([n, 7]), max([n, 7, -3]), least(n, 1), min([9223372036854775807, 9223372036854775807]), max([-9223372036854775807, -9223372036854775807])]
}
"#;
    let program = check_source("extremes.rules", source)
        .program
        .expect("checks");
    let plain = walked(&program);
    let program = Arc::new(program);
    let expected = Value::List(
        [2, 7, 1, i64::MAX, -i64::MAX]
            .into_iter()
            .map(Value::Int)
            .collect(),
    );
    for p in [program, plain] {
        let game = Game::new(p, 2, 1).expect("starts");
        assert_eq!(game.state().globals[0], expected);
    }
}
