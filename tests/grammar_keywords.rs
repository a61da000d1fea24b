//! The grammar's hand-kept lists of statement keywords agree with its statement rules: every
//! statement that opens with a keyword is reached through `stmt_word`'s first letters (a word
//! left out fails silently: it is read as an assignment and refused with a puzzling message),
//! and is a reserved word (`keyword`), so that a statement never opens with it as a name.

use std::collections::BTreeSet;

fn grammar() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("grammar/meeple.pest");
    std::fs::read_to_string(path).expect("the grammar")
}

/// The text of rule `name`, from its `=` to the line that closes it (a rule ends at the first
/// line that ends with `}` at depth 0).
fn rule<'g>(grammar: &'g str, name: &str) -> &'g str {
    let start = grammar
        .lines()
        .position(|l| {
            l.strip_prefix(name)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .unwrap_or_else(|| panic!("no rule {name}"));
    let offset: usize = grammar.lines().take(start).map(|l| l.len() + 1).sum();
    let text = &grammar[offset..];
    let mut depth = 0i32;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return &text[..=i];
                }
            }
            _ => {}
        }
    }
    text
}

/// The statement rules `stmt` tries after `&stmt_word`.
fn keyword_statements(grammar: &str) -> Vec<String> {
    let stmt = rule(grammar, "stmt");
    let inner = stmt
        .split_once("&stmt_word ~ (")
        .map(|(_, rest)| rest)
        .and_then(|rest| rest.split_once(')'))
        .map(|(inner, _)| inner)
        .expect("stmt opens with `&stmt_word ~ (...)`");
    inner
        .split(|c: char| c == '|' || c.is_whitespace())
        .filter(|w| w.ends_with("_stmt"))
        .map(str::to_string)
        .collect()
}

/// The keyword a statement rule opens with (`kw_window` gives `window`).
fn opening_keyword(grammar: &str, statement: &str) -> String {
    let text = rule(grammar, statement);
    let body = text.split_once('{').expect("a rule body").1.trim_start();
    body.strip_prefix("kw_")
        .and_then(|rest| {
            rest.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .next()
        })
        .unwrap_or_else(|| panic!("{statement} does not open with a keyword: {text}"))
        .to_string()
}

/// The first letters `stmt_word` lets through, from its character ranges.
fn statement_letters(grammar: &str) -> BTreeSet<char> {
    let text = rule(grammar, "stmt_word");
    let mut letters = BTreeSet::new();
    for range in text.split('|') {
        let quoted: Vec<char> = range
            .split('\'')
            .skip(1)
            .step_by(2)
            .filter_map(|s| s.chars().next())
            .collect();
        if let [lo, hi] = quoted[..] {
            letters.extend(lo..=hi);
        }
    }
    letters
}

/// The reserved words the `keyword` rule spells out, letter by letter.
fn reserved_words(grammar: &str) -> BTreeSet<String> {
    let text = rule(grammar, "keyword");
    let mut words = BTreeSet::new();
    for line in text.lines().skip(1) {
        let line = line.trim().trim_start_matches('|').trim();
        if let Some(word) = line.strip_prefix('"').and_then(|w| w.strip_suffix('"')) {
            words.insert(word.to_string());
            continue;
        }
        let Some((first, rest)) = line.split_once('~') else {
            continue;
        };
        let Some(letter) = first
            .trim()
            .strip_prefix('\'')
            .and_then(|l| l.chars().next())
        else {
            continue;
        };
        // Each ending: a quoted tail (`"hile"`) or a one-letter range (`'f'..'f'`).
        for tail in rest
            .trim()
            .trim_matches(|c| c == '(' || c == ')')
            .split('|')
        {
            let tail = tail.trim();
            let end = if let Some(t) = tail.strip_prefix('"') {
                t.trim_end_matches('"').to_string()
            } else if let Some(t) = tail.strip_prefix('\'') {
                t.chars().next().map(String::from).unwrap_or_default()
            } else {
                continue;
            };
            words.insert(format!("{letter}{end}"));
        }
    }
    words
}

/// Statement keywords left free as names on purpose, each because its statement cannot be read
/// as an assignment or a call: `remove xs at i` (`remove = 3` and `remove(x)` still assign and
/// call; `remove` also opens a variant's `remove action cheat`); `reveal c` and `conceal c`
/// (rules name a phase or an effect `reveal`, and call it `reveal()`).
const UNRESERVED: &[&str] = &["remove", "prefer", "reveal", "conceal"];

#[test]
fn every_statement_keyword_opens_a_statement_and_is_reserved() {
    let grammar = grammar();
    let statements = keyword_statements(&grammar);
    assert!(statements.len() >= 15, "{statements:?}");
    let letters = statement_letters(&grammar);
    let reserved = reserved_words(&grammar);
    assert!(reserved.contains("while") && reserved.contains("if") && reserved.contains("of"));
    for statement in &statements {
        let word = opening_keyword(&grammar, statement);
        let first = word.chars().next().expect("a word");
        assert!(
            letters.contains(&first),
            "`{word}` ({statement}) opens with `{first}`, which `stmt_word` does not let \
             through: add it to stmt_word's ranges and to the comment above it"
        );
        assert!(
            reserved.contains(&word) || UNRESERVED.contains(&word.as_str()),
            "`{word}` ({statement}) is not in the `keyword` rule: a statement could open with \
             it as a name (if that is meant, list it in UNRESERVED with the reason)"
        );
    }
}

#[test]
fn the_readers_of_the_grammar_see_what_they_read() {
    // The helpers above must find what a broken grammar would lack.
    let grammar = grammar();
    assert!(keyword_statements(&grammar).contains(&"window_stmt".to_string()));
    assert_eq!(opening_keyword(&grammar, "window_stmt"), "window");
    let letters = statement_letters(&grammar);
    assert!(letters.contains(&'s') && letters.contains(&'w') && !letters.contains(&'z'));
    let reserved = reserved_words(&grammar);
    assert!(reserved.contains("window") && reserved.contains("player"));
    assert!(!reserved.contains("game"), "a declaration word stays free");
    assert!(
        !reserved.contains("section"),
        "a declaration word stays free"
    );
    assert!(
        !reserved.contains("record"),
        "a declaration word stays free: `record` may still name a variable"
    );
}
