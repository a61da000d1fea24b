//! Unit tests of the renderers: expressions and statements in words, and the page formats.

use super::expr::{expr, plural, text, type_words};
use super::render;
use super::stmt::{block, Line};
use super::{Block, Book, Section};
use crate::diag::FileId;
use crate::syntax::ast::{Decl, Item};

/// The declarations of a small rules text.
fn decls(src: &str) -> Vec<Decl> {
    let file = crate::syntax::parse(FileId(0), src).expect("parses");
    file.items
        .into_iter()
        .filter_map(|i| match i {
            Item::Decl { decl, .. } => Some(decl),
            Item::Remove { .. } => None,
        })
        .collect()
}

/// An expression in words.
fn words(src: &str) -> String {
    match decls(&format!("def f(): int = {src}")).pop() {
        Some(Decl::Def(d)) => expr(&d.body),
        _ => panic!("not a def"),
    }
}

/// The statements of an effect body as indented lines.
fn steps(src: &str) -> String {
    match decls(&format!("effect e() {{\n{src}\n}}")).pop() {
        Some(Decl::Effect(p)) => block(&p.body, 0)
            .iter()
            .map(|l| format!("{}{}", "  ".repeat(l.depth), l.text))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => panic!("not an effect"),
    }
}

#[test]
fn operators_are_words() {
    assert_eq!(words("me.coins >= 2 * n"), "your coins is at least 2 × n");
    assert_eq!(words("a != b and c < d"), "a is not b and c is less than d");
    assert_eq!(words("x in [1, 2]"), "x is one of [1, 2]");
    assert_eq!(words("x not in xs"), "x is not in xs");
    assert_eq!(words("7 / 2 % 3"), "7 ÷ 2 mod 3");
    assert_eq!(words("1..n + 1"), "1 to n + 1");
    assert_eq!(words("-p.coins"), "-p's coins");
    assert_eq!(words("true"), "yes");
    assert_eq!(words("[]"), "empty");
    assert_eq!(words("player_count"), "the number of players");
}

#[test]
fn brackets_keep_the_meaning() {
    assert_eq!(words("(a + b) * c"), "(a + b) × c");
    assert_eq!(words("a - (b - c)"), "a - (b - c)");
    assert_eq!(words("a - b - c"), "a - b - c");
    // `and` inside `or` (and the reverse) is always bracketed.
    assert_eq!(words("a or b and c"), "a or (b and c)");
    assert_eq!(words("(a or b) and c"), "(a or b) and c");
    assert_eq!(words("a or b or c"), "a or b or c");
    assert_eq!(words("not (a == b)"), "not (a is b)");
    assert_eq!(words("not a"), "not a");
    assert_eq!(
        words("(if c then 1 else 2) + 3"),
        "(if c then 1 else 2) + 3"
    );
}

#[test]
fn built_ins_are_phrases() {
    assert_eq!(words("count(me.hand)"), "the number of your hand");
    assert_eq!(
        words("count(x in xs where x > 2) > 0"),
        "(the number of x in xs where x is more than 2) is more than 0"
    );
    assert_eq!(
        words("sum(a.track for a in team where a.in_play)"),
        "the total of a's track for each a in team where a's in_play"
    );
    assert_eq!(words("first(players)"), "the first of players");
    assert_eq!(words("reverse(sort(xs))"), "xs in decreasing order");
    assert_eq!(
        words("[x * 2 for x in 1..n where x > 1]"),
        "the list of x × 2 for each x in 1 to n where x is more than 1"
    );
    assert_eq!(words("nth(xs, 2)"), "item 2 of xs");
    assert_eq!(words("others(me)"), "the players other than you");
    assert_eq!(
        words("any(p in players where p.coins == 0)"),
        "there is some p in players where p's coins is 0"
    );
    assert_eq!(
        words("all(p in players where p.coins == 0)"),
        "for every p in players: p's coins is 0"
    );
    assert_eq!(
        words("top(p in players by p.money, -p.chits, count(p.hand))"),
        "the p in players with the greatest p's money, then the least p's chits, then the \
         greatest number of p's hand"
    );
    // The designer's defs in words, never as code.
    assert_eq!(words("total(p)"), "total of p");
    assert_eq!(words("game_over()"), "game over");
    assert_eq!(words("in_team(p, q, r)"), "in team of p, q and r");
    // A built-in with the wrong number of arguments reads as any other call.
    assert_eq!(words("count(a, b)"), "count of a and b");
    assert_eq!(words("first(xs).owner"), "the first of xs's owner");
}

#[test]
fn tables_by_player_count() {
    assert_eq!(
        words("by players { 2: 6, 3..4: 5 }"),
        "(6 with 2 players; 5 with 3 to 4 players)"
    );
}

#[test]
fn texts_show_their_values_in_brackets() {
    let d = decls("action a \"Pay {n * 2} to {me} and {me.coins}\" { }");
    let Some(Decl::Action(a)) = d.first() else {
        panic!("an action")
    };
    let t = a.description.as_ref().expect("a description");
    assert_eq!(text(t), "“Pay [n × 2] to [your name] and [your coins]”");
}

#[test]
fn types_in_words() {
    let d = decls(
        "var a: int in -10..10 = 0\nvar b: list of company = []\nvar c: bool = true\nvar d: player = none\n\
         var e: int by player = 0\nvar f: int in 0..3 by gem by player = 0\n\
         var g: bool by card = false\nvar h: int by 1..player_count = 0",
    );
    let types: Vec<String> = d
        .iter()
        .filter_map(|d| match d {
            Decl::Var(v) => Some(type_words(&v.ty)),
            _ => None,
        })
        .collect();
    assert_eq!(
        types,
        [
            "a number from -10 to 10",
            "a list of companies",
            "yes or no",
            "a player",
            "a number for each player",
            "a number from 0 to 3 for each gem for each player",
            "yes or no for each card",
            "a number for each number from 1 to the number of players"
        ]
    );
    assert_eq!(plural("card"), "cards");
    assert_eq!(plural("boss"), "bosses");
    assert_eq!(plural("day"), "days");
}

#[test]
fn statements_are_sentences() {
    let got = steps(
        "let r = roll d6\n\
         let rs = roll 3 of d6\n\
         let c = choose secretly me \"Which?\" from hand\n\
         let ok = ask p \"Join?\" (join, decline)\n\
         let x = random players\n\
         me.coins += r\n\
         me.hand -= c\n\
         done = r > 3\n\
         if r == 6 { end game \"six\" } else if r == 1 { log \"one\" } else { tell me \"{r}\" }\n\
         for q in others(me) where q.coins > 0 { turn q only pay, pass }\n\
         for p in players { turn p }\n\
         for p in players where p.coins > 0 { log \"{p}\" turn p }\n\
         repeat 2 { pay(me, 1) }\n\
         while not done { turn me }\n\
         secretly each p in players choose b \"Bid\" from 0..3 then { }",
    );
    let want = "\
let r be a roll of d6
let rs be a roll of 3 d6 dice
let c be your secret choice from hand (“Which?”)
let ok be p's answer to “Join?” (join = yes, decline = no)
let x be a player drawn at random
add r to your coins
take c from your hand
set done to whether r is more than 3
if r is 6:
  the game ends: “six”
otherwise, if r is 1:
  announce “one”
otherwise:
  you alone are told “[r]”
each q in the players other than you where q's coins is more than 0, in that order, takes a turn (only: pay, pass)
each player, in seat order, takes a turn
for each p in players where p's coins is more than 0:
  announce “[p]”
  p takes a turn
repeat twice:
  pay of you and 1
as long as not done:
  you take a turn
each p in players at the same time chooses b in secret from 0 to 3 (“Bid”); then, for each of them in turn:
  nothing happens";
    assert_eq!(got, want);
}

#[test]
fn html_nests_steps_and_escapes() {
    let book = Book {
        title: "A <b> & c".to_string(),
        sections: vec![Section {
            level: 1,
            heading: "A <b> & c".to_string(),
            blocks: vec![
                Block::Para("uses `x < y`".to_string()),
                Block::Steps(vec![
                    Line {
                        depth: 0,
                        text: "if a:".to_string(),
                    },
                    Line {
                        depth: 1,
                        text: "b".to_string(),
                    },
                    Line {
                        depth: 2,
                        text: "c".to_string(),
                    },
                    Line {
                        depth: 0,
                        text: "d".to_string(),
                    },
                ]),
            ],
        }],
    };
    let html = render::html(&book);
    assert!(html.contains("<title>A &lt;b&gt; &amp; c</title>"));
    assert!(html.contains("<p>uses <code>x &lt; y</code></p>"));
    assert!(html.contains(
        "<ul class=\"steps\">\n<li>if a:\n<ul>\n<li>b\n<ul>\n<li>c</li>\n</ul>\n</li>\n</ul>\n</li>\n<li>d</li>\n</ul>\n"
    ));
    let text = render::text(&book);
    assert_eq!(
        text,
        "# A <b> & c\n\nuses `x < y`\n\n- if a:\n  - b\n    - c\n- d\n"
    );
}

#[test]
fn the_new_decision_words_are_told() {
    // `choose always ask`: asked with one option too.
    assert_eq!(
        steps("let x = choose always ask me \"Which?\" from xs"),
        steps("let x = choose me \"Which?\" from xs")
            + ", asked even when there is a single option"
    );
    // `only when no other`: a line of its own in the action's section.
    let src = "action pass \"Pass\" only when no other { }";
    let mut sources = crate::diag::SourceMap::default();
    sources.add("t.rules", src);
    let Some(Decl::Action(a)) = decls(src).pop() else {
        panic!("not an action")
    };
    let section = super::decls::action_section(&a, &sources);
    assert!(section.blocks.iter().any(|b| matches!(b,
        Block::Para(p) if p == "Offered only when no other action of the turn is possible.")));
}

#[test]
fn a_def_named_with_of_reads_of_once() {
    assert_eq!(words("coin_of(p)"), "coin of p");
    assert_eq!(words("slots_of(p, w)"), "slots of p and w");
    assert_eq!(words("value(p)"), "value of p");
}
