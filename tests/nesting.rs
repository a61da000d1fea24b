//! One depth limit for every kind of nesting (`syntax::MAX_NESTING`): for each construct that
//! nests, the deepest form accepted checks and runs without touching the end of a small stack,
//! one level more is refused with `too-deep`, and ten times the limit is refused as quickly.
//! Recursion at run time, up to the call-depth limit, never overflows either.

use meeple::load::check_source;
use meeple::syntax::MAX_NESTING;
use std::sync::Arc;

/// The stack of the threads the forms run on: that of a test thread, less than a main thread.
const STACK: usize = 2 << 20;

/// A game whose `def f(): int` and `action go` come from one form; `go` evaluates `f()`.
fn game(decls: &str) -> String {
    format!(
        "game \"Deep\" {{ players 2 }}\nplayer var points: int = 0\n{decls}\n\
         flow {{ for p in players {{ turn p }} }}\nscore(p) = p.points\n"
    )
}

/// A construct that nests: its name, and the game with it nested so many levels.
type Form = (&'static str, fn(usize) -> String);

/// Every construct that nests.
fn forms() -> Vec<Form> {
    vec![
        ("parentheses", |n| {
            game(&format!(
                "def f(): int = {}1{}\naction go {{ me.points += f() }}",
                "(".repeat(n),
                ")".repeat(n)
            ))
        }),
        ("calls", |n| {
            game(&format!(
                "def f(): int = {}1{}\naction go {{ me.points += f() }}",
                "abs(".repeat(n),
                ")".repeat(n)
            ))
        }),
        ("lists", |n| {
            game(&format!(
                "def f(): int = count({}1{})\naction go {{ me.points += f() }}",
                "[".repeat(n),
                "]".repeat(n)
            ))
        }),
        ("blocks", |n| {
            game(&format!(
                "action go {{ {} me.points += 1 {} }}",
                "if true { ".repeat(n),
                "} ".repeat(n)
            ))
        }),
        ("else if", |n| {
            let arms: String = (1..n)
                .map(|i| format!(" else if me.points == {i} {{ me.points += 2 }}"))
                .collect();
            game(&format!(
                "action go {{\n  if me.points == 0 {{ me.points += 1 }}{arms}\n}}"
            ))
        }),
        ("if then else if", |n| {
            let arms: String = (1..n)
                .map(|i| format!("if me.points == {i} then {i} else "))
                .collect();
            game(&format!("action go {{ me.points += {arms}1 }}"))
        }),
        ("then if", |n| {
            game(&format!(
                "action go {{ me.points += {}1{} }}",
                "if true then ".repeat(n),
                " else 0".repeat(n)
            ))
        }),
        ("list of", |n| {
            game(&format!(
                "var v: {}int = []\naction go {{ me.points += count(v) }}",
                "list of ".repeat(n)
            ))
        }),
        ("minus", |n| {
            game(&format!("action go {{ me.points += {}1 }}", "- ".repeat(n)))
        }),
        ("not", |n| {
            game(&format!(
                "action go {{ if {}true {{ me.points += 1 }} }}",
                "not ".repeat(n)
            ))
        }),
        ("operators", |n| {
            game(&format!(
                "action go {{ me.points += 1{} }}",
                " + 1".repeat(n)
            ))
        }),
        ("interpolation", |n| {
            game(&format!(
                "action go {{ log \"{{{}1{}}}\" }}",
                "(".repeat(n),
                ")".repeat(n)
            ))
        }),
        ("after a # in a string", |n| {
            game(&format!(
                "action go {{ log \"#1\" me.points += {}1{} }}",
                "(".repeat(n),
                ")".repeat(n)
            ))
        }),
    ]
}

/// What checking (and, for a valid game, playing) a text came to.
#[derive(Debug, PartialEq)]
enum Outcome {
    TooDeep,
    /// Checked without a `too-deep`: with its other error codes, if any.
    Accepted(Vec<&'static str>),
}

/// Checks `text` on a thread with [`STACK`] bytes of stack, and plays a game if it checks.
fn outcome(text: String) -> Outcome {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let loaded = check_source("deep.rules", &text);
            let codes: Vec<&'static str> = loaded.diagnostics.0.iter().map(|d| d.code).collect();
            if codes.contains(&"too-deep") {
                return Outcome::TooDeep;
            }
            if let Some(program) = loaded.program {
                let program = Arc::new(program);
                meeple::sim::random_game(program, 2, 1).expect("the game plays");
            }
            Outcome::Accepted(codes.into_iter().filter(|c| c.contains("error")).collect())
        })
        .expect("a thread")
        .join()
        .expect("no panic, no overflow")
}

#[test]
fn every_kind_of_nesting_stops_at_one_limit() {
    for (name, form) in forms() {
        // The deepest accepted, found by bisection over 1..=2×limit.
        assert!(
            matches!(outcome(form(1)), Outcome::Accepted(_)),
            "{name}: one level is refused"
        );
        let (mut ok, mut refused) = (1, 2 * MAX_NESTING);
        assert_eq!(
            outcome(form(refused)),
            Outcome::TooDeep,
            "{name}: twice the limit is accepted"
        );
        while refused - ok > 1 {
            let mid = (ok + refused) / 2;
            match outcome(form(mid)) {
                Outcome::TooDeep => refused = mid,
                Outcome::Accepted(_) => ok = mid,
            }
        }
        // The limit is the documented one, give or take the levels the form itself adds.
        assert!(
            ok + 6 >= MAX_NESTING && ok <= MAX_NESTING,
            "{name}: accepted up to {ok}, the limit is {MAX_NESTING}"
        );
        // Ten times beyond: refused, and quickly (no work grows with the depth past the limit).
        assert_eq!(
            outcome(form(10 * MAX_NESTING)),
            Outcome::TooDeep,
            "{name} at 10x"
        );
    }
}

#[test]
fn brackets_and_hashes_inside_strings_are_text() {
    // A string of a thousand `(` nests nothing, and a `#` inside a string starts no comment.
    let text = game(&format!(
        "action go {{ log \"{}#\" me.points += 1 }}",
        "(".repeat(10 * MAX_NESTING)
    ));
    assert_eq!(outcome(text), Outcome::Accepted(vec![]));
    let text = game("action go { log \"a \\\" # quoted\" me.points += 1 }");
    assert_eq!(outcome(text), Outcome::Accepted(vec![]));
}

#[test]
fn recursion_to_the_call_limit_with_deep_bodies_does_not_overflow() {
    // Once: a 199-deep recursion through a 40-level body killed the process.
    let depth = MAX_NESTING - 5;
    let body = format!("{}f(n - 1) + 1{}", "abs(".repeat(depth), ")".repeat(depth));
    let text = game(&format!(
        "def f(n: int): int = if n <= 0 then 0 else {body}\naction go {{ me.points += f({}) }}",
        meeple::engine::MAX_CALL_DEPTH - 1
    ));
    assert_eq!(outcome(text), Outcome::Accepted(vec![]));
    // One call deeper than the limit is a clean runtime error, not a crash.
    let text = game(&format!(
        "def f(n: int): int = if n <= 0 then 0 else {body}\naction go {{ me.points += f({}) }}",
        meeple::engine::MAX_CALL_DEPTH + 5
    ));
    let result = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let program = Arc::new(check_source("deep.rules", &text).program.expect("checks"));
            meeple::sim::random_game(program, 2, 1).map(|_| ())
        })
        .expect("a thread")
        .join()
        .expect("no overflow");
    let err = result.expect_err("too deep a recursion fails");
    assert!(err.to_string().contains("called itself more than"), "{err}");
}
