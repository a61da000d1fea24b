//! The VS Code snippets (`editors/vscode/snippets/meeple.json`): each body, its placeholders
//! replaced by their default text as VS Code inserts it, must be rules that check, in a small
//! game where it belongs (a declaration after the others, a statement in an action), so that a
//! snippet that drifts from the language fails here.

use meeple::load::check_source;
use serde_json::Value;
use std::collections::BTreeMap;

/// A piece of a snippet body: text, or tabstop `n` with its default, if it has one.
enum Piece {
    Text(String),
    Tab(u32, Option<Vec<Piece>>),
}

/// Parses a snippet body (VS Code's syntax: `$1`, `${1}`, `${1:default}`, `${1|one,two|}`,
/// `\\$`, `\\}` and `\\\\` escapes) up to an unescaped `}` when `nested`. Variables (`$TM_...`)
/// are refused: the Meeple snippets use none.
fn pieces(chars: &mut std::iter::Peekable<std::str::Chars>, nested: bool) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut text = String::new();
    while let Some(c) = chars.next() {
        match c {
            '\\' if matches!(chars.peek(), Some('$' | '}' | '\\')) => {
                text.push(chars.next().unwrap())
            }
            '}' if nested => break,
            '$' => {
                let braced = chars.next_if_eq(&'{').is_some();
                let mut digits = String::new();
                while let Some(d) = chars.next_if(char::is_ascii_digit) {
                    digits.push(d);
                }
                let n: u32 = digits
                    .parse()
                    .unwrap_or_else(|_| panic!("`$` not followed by a tabstop number: {text}"));
                let default = if !braced {
                    None
                } else if chars.next_if_eq(&':').is_some() {
                    Some(pieces(chars, true))
                } else if chars.next_if_eq(&'|').is_some() {
                    let choice: String = chars.by_ref().take_while(|&c| c != '|').collect();
                    assert_eq!(chars.next(), Some('}'), "a choice ends with `|}}`");
                    let first = choice.split(',').next().unwrap_or("").to_string();
                    Some(vec![Piece::Text(first)])
                } else {
                    assert_eq!(chars.next(), Some('}'), "`${{{n}` is not closed");
                    None
                };
                out.push(Piece::Text(std::mem::take(&mut text)));
                out.push(Piece::Tab(n, default));
            }
            c => text.push(c),
        }
    }
    out.push(Piece::Text(text));
    out
}

/// The text of the first default given to each tabstop.
fn defaults<'p>(pieces: &'p [Piece], out: &mut BTreeMap<u32, &'p [Piece]>) {
    for piece in pieces {
        if let Piece::Tab(n, Some(inner)) = piece {
            out.entry(*n).or_insert(inner);
            defaults(inner, out);
        }
    }
}

fn render(pieces: &[Piece], defaults: &BTreeMap<u32, &[Piece]>, out: &mut String) {
    for piece in pieces {
        match piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Tab(_, Some(inner)) => render(inner, defaults, out),
            // A bare `$n` mirrors what tabstop n holds: its default until the user types.
            Piece::Tab(n, None) => render(defaults.get(n).copied().unwrap_or(&[]), defaults, out),
        }
    }
}

/// A snippet body as VS Code inserts it before anything is typed.
fn expand(body: &str) -> String {
    let parsed = pieces(&mut body.chars().peekable(), false);
    let mut found = BTreeMap::new();
    defaults(&parsed, &mut found);
    let mut out = String::new();
    render(&parsed, &found, &mut out);
    out
}

#[test]
fn the_expander_inserts_defaults_as_vs_code_does() {
    assert_eq!(
        expand(r"a ${1:x} = $1; ${2|p,q|} \$ {${3:n {${4:m\}}}} $0$9"),
        "a x = x; p $ {n {m}} "
    );
}

fn snippets() -> serde_json::Map<String, Value> {
    let path = super::vscode().join("snippets/meeple.json");
    let text = std::fs::read_to_string(&path).expect("snippets/meeple.json");
    match serde_json::from_str(&text).expect("snippets/meeple.json is JSON") {
        Value::Object(map) => map,
        other => panic!("snippets/meeple.json is not an object: {other}"),
    }
}

const HEADER: &str = "game \"Snippets\" { players 2..4 }\nplayer var points: int = 0\n";
const FLOW: &str = "flow { for p in players { turn p } }\n";
const ACTION: &str = "action pass \"Pass\" { }\n";

/// A rules file the expanded snippet belongs in: a whole game stands alone, a declaration joins a
/// small game, a statement is the body of one of its actions.
fn in_a_game(text: &str) -> String {
    let first = text.split_whitespace().next().unwrap_or("");
    match first {
        "#" | "game" => text.to_string(),
        "flow" => format!("{HEADER}{ACTION}{text}\n"),
        "action" | "scenario" | "setup" | "effect" | "def" | "player" | "var" | "kind" | "enum"
        | "invariant" | "section" => format!("{HEADER}{FLOW}{ACTION}{text}\n"),
        _ => format!("{HEADER}{FLOW}action pass \"Pass\" {{\n{text}\n}}\n"),
    }
}

#[test]
fn every_snippet_expands_to_rules_that_check() {
    let all = snippets();
    let prefixes: Vec<&str> = all.values().filter_map(|s| s["prefix"].as_str()).collect();
    for wanted in ["action", "flow", "scenario"] {
        assert!(prefixes.contains(&wanted), "no snippet for `{wanted}`");
    }
    for (name, snippet) in &all {
        assert!(
            snippet["description"].is_string(),
            "{name} has no description"
        );
        let body = match &snippet["body"] {
            Value::String(s) => s.clone(),
            Value::Array(lines) => lines
                .iter()
                .map(|l| l.as_str().expect("a body line is a string"))
                .collect::<Vec<_>>()
                .join("\n"),
            other => panic!("{name}: body is {other}"),
        };
        let file = in_a_game(&expand(&body));
        let loaded = check_source("snippet.rules", &file);
        let errors: Vec<String> = loaded
            .diagnostics
            .0
            .iter()
            .filter(|d| d.is_error())
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect();
        assert!(
            errors.is_empty(),
            "the snippet `{name}` does not check:\n{file}\n{errors:#?}"
        );
    }
}
