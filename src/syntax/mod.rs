//! Surface syntax: the pest grammar in `grammar/meeple.pest`, lowered to an owned, spanned AST.
//!
//! Invariant: pest never leaves this folder; callers see [`ast`] and [`Diagnostic`]s only.

pub mod ast;
mod batches;
pub mod controls;
pub mod format;
mod lower;
mod nesting;
mod section;

use nesting::too_deep;

use crate::diag::{Diagnostic, FileId, Span};
use pest::Parser;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/meeple.pest"]
struct RulesParser;

/// Every keyword of the language, one per `kw_` rule of the grammar, in alphabetical order: for
/// editors (completion, highlighting). A test keeps it equal to the grammar's list.
pub const KEYWORDS: &[&str] = &[
    "action",
    "add",
    "always",
    "and",
    "any",
    "as",
    "ask",
    "at",
    "base",
    "because",
    "before",
    "bool",
    "break",
    "by",
    "choose",
    "conceal",
    "continue",
    "def",
    "die",
    "each",
    "effect",
    "eliminate",
    "else",
    "end",
    "enum",
    "exactly",
    "excludes",
    "expect",
    "false",
    "flow",
    "for",
    "from",
    "game",
    "goal",
    "hidden",
    "if",
    "in",
    "int",
    "internal",
    "invariant",
    "kind",
    "let",
    "list",
    "listed",
    "log",
    "match",
    "me",
    "most",
    "move",
    "named",
    "none",
    "not",
    "of",
    "only",
    "or",
    "over",
    "phase",
    "picks",
    "play",
    "player",
    "players",
    "pop",
    "prefer",
    "public",
    "random",
    "record",
    "refused",
    "remove",
    "repeat",
    "replace",
    "require",
    "return",
    "reveal",
    "roll",
    "rolls",
    "run",
    "scenario",
    "score",
    "seats",
    "secret",
    "secretly",
    "section",
    "seed",
    "set",
    "setup",
    "show",
    "shown",
    "shuffle",
    "shuffles",
    "source",
    "table",
    "tell",
    "then",
    "to",
    "true",
    "turn",
    "until",
    "var",
    "variant",
    "visible",
    "when",
    "where",
    "while",
    "window",
    "winners",
];

/// Deepest nesting of any kind a rules file may have (brackets, `else if` links, `if`s in
/// expressions, `list of`s, runs of `-` or `not`, operators in one expression).
/// Real rules nest a handful of levels; the limit keeps parsing and checking off the end of
/// the stack.
pub const MAX_NESTING: usize = 100;

/// The reserved words (docs/language.md), sorted: they cannot name anything. The grammar
/// takes any word for a name; the lowering refuses these.
pub(crate) const RESERVED: [&str; 39] = [
    "and",
    "ask",
    "bool",
    "break",
    "by",
    "choose",
    "continue",
    "eliminate",
    "else",
    "end",
    "false",
    "for",
    "if",
    "in",
    "int",
    "let",
    "list",
    "log",
    "match",
    "me",
    "none",
    "not",
    "of",
    "or",
    "player",
    "random",
    "repeat",
    "require",
    "return",
    "roll",
    "secretly",
    "tell",
    "then",
    "true",
    "turn",
    "var",
    "where",
    "while",
    "window",
];

/// Whether `word` is a reserved word. Asked of every name a file holds: most names are longer
/// than any reserved word and are told so without a comparison.
pub(crate) fn is_reserved(word: &str) -> bool {
    (2..=9).contains(&word.len()) && RESERVED.binary_search(&word).is_ok()
}

/// Parses one rules file. A syntax error yields one diagnostic at the point of failure.
pub fn parse(file: FileId, text: &str) -> Result<ast::File, Vec<Diagnostic>> {
    if let Some(at) = too_deep(text) {
        let end = at + text[at..].chars().next().map_or(0, char::len_utf8);
        return Err(vec![Diagnostic::error(
            "too-deep",
            format!("this nests more than {MAX_NESTING} levels deep"),
            Span::new(file, at, end),
        )
        .with_label("too deep")
        .with_help("split the expression with `let` or a `def`")]);
    }
    parse_split(file, text, batches::SPLIT_FROM)
}

/// [`parse`], reading a file of at least `split_from` bytes in two halves at once.
fn parse_split(file: FileId, text: &str, split_from: usize) -> Result<ast::File, Vec<Diagnostic>> {
    let (parsed, errors) = match batches::read(file, text, split_from) {
        Some((items, errors)) => (
            ast::File {
                items: section::flatten(items),
            },
            errors,
        ),
        None => {
            // A syntax error: the whole file again, as one, for the error it has always had
            // (what was expected where, the unclosed brace, the misspelt keyword).
            let mut lowerer = lower::Lowerer::new(file);
            let pairs = RulesParser::parse(Rule::file, text)
                .map_err(|e| vec![syntax_error(file, text, e)])?;
            let parsed = lowerer.file(pairs);
            (parsed, lowerer.into_errors())
        }
    };
    if errors.is_empty() {
        Ok(parsed)
    } else {
        Err(errors)
    }
}

fn syntax_error(file: FileId, text: &str, e: pest::error::Error<Rule>) -> Diagnostic {
    let (start, end) = match e.location {
        pest::error::InputLocation::Pos(p) => (p, p),
        pest::error::InputLocation::Span((s, e)) => (s, e),
    };
    // Point at the offending token rather than at an empty position, where there is one:
    // up to the next whitespace, at most 24 characters, always on character boundaries.
    let start = start.min(text.len());
    let end = if end > start {
        end.min(text.len())
    } else {
        let rest = &text[start..];
        let token = token_len(rest);
        let token = if token == 0 {
            rest.chars().next().map_or(0, char::len_utf8)
        } else {
            token
        };
        start + token
    };
    if let Some(d) = misspelt_keyword(file, text, start) {
        return d;
    }
    if let Some(d) = after_complete_text(file, text, start, &e.variant) {
        return d;
    }
    let found = text
        .get(start..end)
        .filter(|s| !s.is_empty())
        .map_or("the end of the file".to_string(), |s| format!("`{s}`"));
    if let Some(d) = unclosed_brace(file, text, start, end, &found) {
        return d;
    }
    let (expected, help) = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let statement_starts = [
                Rule::stmt_word,
                Rule::kw_let,
                Rule::kw_if,
                Rule::kw_for,
                Rule::kw_turn,
                Rule::kw_log,
                Rule::kw_while,
            ];
            let is_statement = statement_starts.iter().any(|r| positives.contains(r));
            let mut names: Vec<String> = positives
                .iter()
                .filter(|r| !is_statement || !is_statement_start(**r))
                .map(|r| rule_name(*r))
                .collect();
            if is_statement {
                names.push("a statement".to_string());
            }
            names.sort_unstable();
            names.dedup();
            let help = hint_for(positives);
            (names, help)
        }
        pest::error::ErrorVariant::CustomError { message } => (vec![message.clone()], None),
    };
    let expected = match expected.len() {
        0 => "something else".to_string(),
        1 => expected[0].to_string(),
        _ => format!(
            "{} or {}",
            expected[..expected.len() - 1].join(", "),
            expected[expected.len() - 1]
        ),
    };
    let d = Diagnostic::error(
        "syntax-error",
        format!("expected {expected}, found {found}"),
        Span::new(file, start, end),
    );
    let d = match found.as_str() {
        "`;`" => {
            let (end, replacement) = semicolon_fix(text, start);
            d.with_fix(Span::new(file, start, end), replacement)
        }
        _ => d,
    };
    d.with_label(format!("expected {expected} here"))
        .with_help(help.unwrap_or_else(|| {
            if found == "`;`" {
                "statements are separated by new lines; rules files have no `;`".to_string()
            } else if let Some(help) = through_a_call(text, start, &found, &expected) {
                help
            } else if let Some(help) = comment_after_a_name(text, start) {
                help
            } else if found.starts_with("`\"") && expected.contains("an expression") {
                "a quoted text is not a value: texts are only what the rules say (`log`, `tell`, \
             labels, prompts); for a value with a name, declare an enum, such as \
             `enum colour { red, blue }`"
                    .to_string()
            } else {
                "see `meeple help language` for the form of each construct".to_string()
            }
        }))
}

/// The help for `next(p).money = 3`: a statement cannot change a field of what a call gives,
/// so name the call's value first.
fn through_a_call(text: &str, start: usize, found: &str, expected: &str) -> Option<String> {
    let before = text.get(..start)?;
    let line = before.rsplit('\n').next()?.trim();
    if !(found.starts_with("`.") && expected.contains("a statement") && line.ends_with(')')) {
        return None;
    }
    let field = found.trim_matches('`').trim_start_matches('.');
    Some(format!(
        "a field of what a call gives cannot be changed in place: name it first, \
         `let q = {line}` on a line of its own, then `q.{field} ...`"
    ))
}

/// The help for `[red#2]` in an expression: the `#` starts a comment, which hides the rest of
/// the line, and the error comes later. Read on the error's line and the one before it.
fn comment_after_a_name(text: &str, start: usize) -> Option<String> {
    let before = text.get(..start)?;
    let from = before
        .rfind('\n')
        .map_or(0, |i| before[..i].rfind('\n').map_or(0, |j| j + 1));
    text.get(from..)?.split('\n').take(2).find_map(|line| {
        // Outside texts: a `#` inside quotes is text.
        let code = line.split('"').step_by(2).collect::<Vec<_>>().join("\"\"");
        let at = code.find('#')?;
        let (name, rest) = (&code[..at], &code[at + 1..]);
        let word = name.rsplit(|c: char| !(c.is_alphanumeric() || c == '_')).next()?;
        let number: String = rest.chars().take_while(char::is_ascii_digit).collect();
        (!word.is_empty() && !number.is_empty()).then(|| {
            format!(
                "`{word}#{number}` reads as `{word}` and then a comment from `#`, which hides the rest of \
                 its line; `#{number}` tells alike instances apart only in moves typed (`play P1 \"take \
                 {word}#{number}\"`): in an expression, find the instance by its fields"
            )
        })
    })
}

/// Where the fix of a `;` at `at` ends, and what it writes: nothing at the end of a line, a
/// line break with the line's indent between two statements (the blanks after the `;` too).
fn semicolon_fix(text: &str, at: usize) -> (usize, String) {
    let after = &text[at + 1..];
    let rest = after.split('\n').next().unwrap_or("").trim();
    if rest.is_empty() || rest.starts_with('#') {
        return (at + 1, String::new());
    }
    let end = text.len() - after.trim_start_matches([' ', '\t']).len();
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..at];
    let indent = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
    (end, format!("\n{indent}"))
}

/// The bytes of the token `rest` begins with: up to the next whitespace, at most 24
/// characters, on character boundaries.
fn token_len(rest: &str) -> usize {
    rest.chars()
        .take_while(|c| !c.is_whitespace())
        .take(24)
        .map(char::len_utf8)
        .sum()
}

/// An error at the closing quote of a text that is complete: the parser last tried to read
/// more of the text there, and what it wanted next (a literal `{`, which the parser does not
/// name) lies beyond. Said for the declarations whose title is followed by `{`; any other
/// error is left to the general message.
fn after_complete_text(
    file: FileId,
    text: &str,
    at: usize,
    variant: &pest::error::ErrorVariant<Rule>,
) -> Option<Diagnostic> {
    let pest::error::ErrorVariant::ParsingError { positives, .. } = variant else {
        return None;
    };
    let inside_text = |r: &Rule| matches!(r, Rule::str_text | Rule::str_escape | Rule::interp);
    if positives.is_empty() || !positives.iter().all(inside_text) || !text[at..].starts_with('"') {
        return None;
    }
    // The next word after the text, past blanks and comments.
    let mut next = at + 1;
    loop {
        let rest = &text[next..];
        let trimmed = rest.trim_start();
        next += rest.len() - trimmed.len();
        if trimmed.starts_with('#') {
            next += trimmed.find('\n').unwrap_or(trimmed.len());
        } else {
            break;
        }
    }
    let rest = &text[next..];
    let len = token_len(rest);
    let found = if len == 0 {
        "the end of the file".to_string()
    } else {
        format!("`{}`", &rest[..len])
    };
    // The word that begins the line of the text's opening quote.
    let opening = text[..at].rfind('"')?;
    let line = &text[text[..opening].rfind('\n').map_or(0, |i| i + 1)..opening];
    let first = line.split_whitespace().next().unwrap_or("");
    let example = match first {
        "game" => "game \"Title\" { players 2..4 }",
        "variant" => "variant \"Title\" { base \"../game.rules\" }",
        "scenario" => "scenario \"what it shows\" { players 3 ... }",
        _ => return None,
    };
    Some(
        Diagnostic::error(
            "syntax-error",
            format!("expected `{{` after the title of `{first}`, found {found}"),
            Span::new(file, next, next + len.max(usize::from(next < text.len()))),
        )
        .with_label("expected `{` here")
        .with_help(format!(
            "a `{first}` declaration is a title and a block: `{example}`"
        )),
    )
}

/// Keywords that begin a statement or a scenario step; with [`DECLARATION_STARTS`], what the
/// first word of a line that does not parse may have meant.
const STATEMENT_STARTS: &[&str] = &[
    "let",
    "if",
    "match",
    "for",
    "repeat",
    "while",
    "window",
    "turn",
    "log",
    "tell",
    "require",
    "prefer",
    "end",
    "eliminate",
    "secretly",
    "remove",
    "reveal",
    "conceal",
    "return",
    "break",
    "continue",
    "set",
    "expect",
    "play",
    "players",
    "seed",
    "run",
    "rolls",
    "picks",
    "shuffles",
    "before",
    "move",
];

/// A syntax error at `at`, at or just after a word that begins a statement or a declaration
/// (first on its line, or just after a `{`), where that word is a misspelt keyword
/// (`lett x = 3`, `requre ok else "..."`, `acton go { }`).
fn misspelt_keyword(file: FileId, text: &str, at: usize) -> Option<Diagnostic> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let rest = text.get(at..)?;
    // The word the error is at, and the word just before it on its line.
    let here = (
        at,
        at + rest.find(|c: char| !ident(c)).unwrap_or(rest.len()),
    );
    let before = text[..at].trim_end_matches([' ', '\t']);
    let before = (before.trim_end_matches(ident).len(), before.len());
    let (word_start, word_end, meant) = [before, here].into_iter().find_map(|(s, e)| {
        let word = &text[s..e];
        let prev = text[..s].trim_end_matches([' ', '\t', '\r']).chars().last();
        let begins = matches!(prev, None | Some('\n' | '{' | '}'));
        if word.is_empty() || !begins || KEYWORDS.contains(&word) {
            return None;
        }
        let meant = crate::diag::suggest_name(
            word,
            STATEMENT_STARTS.iter().chain(DECLARATION_STARTS).copied(),
        )?;
        Some((s, e, meant))
    })?;
    let word = &text[word_start..word_end];
    Some(
        Diagnostic::error(
            "syntax-error",
            format!("`{word}` is not a keyword: did you mean `{meant}`?"),
            Span::new(file, word_start, word_end),
        )
        .with_label(format!("did you mean `{meant}`?"))
        .with_help(format!(
            "write `{meant}`: `{word}` reads as a name, which would have to be followed by `=` or `(`"
        ))
        .with_fix(Span::new(file, word_start, word_end), meant),
    )
}

/// Words that begin a declaration: a syntax error at one of them, first on its line, inside a
/// block, most likely means a `}` was left out above.
const DECLARATION_STARTS: &[&str] = &[
    "game",
    "table",
    "variant",
    "enum",
    "var",
    "kind",
    "die",
    "def",
    "effect",
    "action",
    "phase",
    "flow",
    "setup",
    "score",
    "goal",
    "winners",
    "invariant",
    "show",
    "scenario",
    "add",
    "replace",
    "remove",
    "player",
    "public",
    "secret",
    "hidden",
    "internal",
];

/// A syntax error at the end of the file, or at a declaration first on its line, while a `{` is
/// still open: points at the brace left open. Where a `}` closes a brace of another indentation,
/// the first brace so closed is the likely one; otherwise the innermost brace still open.
fn unclosed_brace(
    file: FileId,
    text: &str,
    start: usize,
    end: usize,
    found: &str,
) -> Option<Diagnostic> {
    // The first word of the error's line, if the error is at it or right after it.
    let line_start = text.get(..start)?.rfind('\n').map_or(0, |i| i + 1);
    let word_start =
        line_start + (text[line_start..].len() - text[line_start..].trim_start().len());
    let word_end = text[word_start..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(text.len(), |n| word_start + n);
    let word = &text[word_start..word_end];
    let right_after = start >= word_start
        && (start <= word_end || text[word_end..start].chars().all(|c| c == ' ' || c == '\t'));
    let at_end = text[start..].trim().is_empty();
    let declaration = right_after && DECLARATION_STARTS.contains(&word);
    if !at_end && !declaration {
        return None;
    }
    let (start, end) = if declaration {
        (word_start, word_end)
    } else {
        (start, end)
    };
    let indent_of = |pos: usize| {
        let ls = text[..pos].rfind('\n').map_or(0, |i| i + 1);
        text[ls..].len() - text[ls..].trim_start_matches([' ', '\t']).len()
    };
    let bytes = text.as_bytes();
    let mut open: Vec<usize> = Vec::new();
    let mut mismatched: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < start {
        match bytes[i] {
            b'#' => {
                i = text[i..].find('\n').map_or(text.len(), |n| i + n);
            }
            b'"' => {
                i += 1;
                while i < start && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' => open.push(i),
            b'}' => {
                if let Some(o) = open.pop() {
                    if indent_of(o) != indent_of(i) {
                        mismatched.push(o);
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    // A `}` missing inside shifts every later `}` one brace outwards: the first brace closed
    // by a `}` of another indentation is the one whose own `}` is missing.
    let innermost = *open.last()?;
    let brace = mismatched
        .iter()
        .copied()
        .find(|m| *m > innermost)
        .unwrap_or(innermost);
    let (line, _) = line_col(text, brace);
    let here = if declaration {
        format!("`{word}` begins a declaration here")
    } else {
        "the file ends here".to_string()
    };
    let found = if declaration {
        format!("`{word}`")
    } else {
        found.to_string()
    };
    Some(
        Diagnostic::error(
            "syntax-error",
            format!("a `{{` is left open: expected `}}`, found {found}"),
            Span::new(file, brace, brace + 1),
        )
        .with_label(format!("this `{{` (line {line}) is never closed"))
        .with_secondary(Span::new(file, start, end.max(start)), here)
        .with_help("close the block with `}` where it ends"),
    )
}

/// 1-based line and column of a byte offset.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let upto = &text[..at];
    let line = upto.matches('\n').count() + 1;
    let col = upto.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

fn is_statement_start(rule: Rule) -> bool {
    use Rule::*;
    matches!(
        rule,
        stmt_word
            | kw_let
            | kw_if
            | kw_for
            | kw_repeat
            | kw_while
            | kw_turn
            | kw_log
            | kw_tell
            | kw_require
            | kw_prefer
            | kw_end
            | kw_eliminate
            | kw_secretly
            | kw_remove
            | kw_reveal
            | kw_conceal
            | name
            | place
            | assign_stmt
            | call_stmt
    )
}

fn hint_for(positives: &[Rule]) -> Option<String> {
    if positives.contains(&Rule::item) || positives.contains(&Rule::EOI) {
        Some("a rules file is a list of declarations: game, enum, var, kind, record, die, def, effect, action, phase, setup, flow, score, goal, winners".into())
    } else if positives.contains(&Rule::string) {
        Some("texts are written in double quotes, such as \"Roll a die\"".into())
    } else if positives.contains(&Rule::block) {
        Some("a body is a list of statements between `{` and `}`".into())
    } else {
        None
    }
}

/// A human name for each grammar rule, for "expected ..." messages.
fn rule_name(rule: Rule) -> String {
    let debug = format!("{rule:?}");
    if let Some(word) = debug.strip_prefix("kw_") {
        return format!("`{word}`");
    }
    rule_text(rule).to_string()
}

fn rule_text(rule: Rule) -> &'static str {
    use Rule::*;
    match rule {
        EOI => "the end of the file",
        item | patch | patch_remove => "a declaration",
        part_kind | part_single => "a kind of part (var, action, def, ...)",
        game_prop | prop_players | prop_source | prop_seats => {
            "a game property (players, source, seats)"
        }
        variant_prop | prop_base | prop_excludes => "a variant property (base, excludes)",
        field_decl => "a field (`name: type = value`)",
        record_field => "a field (`name: type`, or `name: type = default`)",
        named_arg | named_ahead => "an expression",
        params | param => "parameters",
        type_expr | type_map | type_elem | type_list | type_int | type_bool | type_player
        | type_named => "a type",
        block => "`{`",
        let_stmt | if_stmt | for_stmt | repeat_stmt | while_stmt | turn_stmt | log_stmt
        | tell_stmt | require_stmt | end_stmt | eliminate_stmt | secretly_stmt | assign_stmt
        | call_stmt | remove_stmt | reveal_stmt | conceal_stmt => "a statement",
        pop_at => "`at`",
        assign_op => "`=`, `+=` or `-=`",
        place => "a variable",
        choose_expr | ask_expr | roll_expr | random_expr => "an expression",
        expr | expr_noin | arg_expr | comp_tail | int | none_lit | me_lit | if_expr | list_lit
        | comprehension_list | call | by_players | comprehension | comp_filter | comp_ahead => {
            "an expression"
        }
        args => "`(`",
        by_entry => "a player count and its value (`3: 4`)",
        op_or | op_and | op_eq | op_ne | op_le | op_ge | op_lt | op_gt | op_in | op_notin
        | op_range | op_add | op_sub | op_mul | op_div | op_mod | infix_ahead => "an operator",
        op_not | op_neg => "an expression",
        field_access => "`.`",
        index => "`[`",
        string | str_text | str_escape | interp => "a quoted text",
        name | enum_value => "a name",
        ask_words => "`(`",
        last_resort => "`only when no other`",
        word_no => "`no`",
        word_other => "`other`",
        _ => "something else",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(src: &str) -> ast::File {
        match parse(FileId(0), src) {
            Ok(f) => f,
            Err(e) => panic!("parse failed: {e:?}"),
        }
    }

    /// Parses `src` both ways, in batches (in halves too, from `split_from` bytes) and as one,
    /// and asserts they agree, spans and lowering errors included.
    fn same_both_ways(src: &str, split_from: usize) {
        let batched = parse_split(FileId(0), src, split_from);
        let mut lowerer = lower::Lowerer::new(FileId(0));
        let whole = match RulesParser::parse(Rule::file, src) {
            Ok(pairs) => {
                let f = lowerer.file(pairs);
                let errors = lowerer.into_errors();
                if errors.is_empty() {
                    Ok(f)
                } else {
                    Err(errors)
                }
            }
            Err(e) => Err(vec![syntax_error(FileId(0), src, e)]),
        };
        assert_eq!(format!("{batched:?}"), format!("{whole:?}"), "{src}");
    }

    #[test]
    fn changing_a_field_through_a_call_says_to_name_the_value_first() {
        let src = "game \"G\" { players 2 }\nplayer var money: int = 0\nflow {\n  for p in players {\n    next(p).money = 3\n  }\n}\n";
        let e = RulesParser::parse(Rule::file, src).expect_err("does not parse");
        let d = syntax_error(FileId(0), src, e);
        let help = d.help.unwrap_or_default();
        assert!(
            help.contains("`let q = next(p)`") && help.contains("`q.money ...`"),
            "{help}"
        );
    }

    #[test]
    fn an_instance_number_in_an_expression_is_said_to_start_a_comment() {
        let src = "game \"G\" { players 2 }\nenum c { red }\nvar xs: list of c = [red#2]\nvar y: int = 3\n";
        let e = RulesParser::parse(Rule::file, src).expect_err("does not parse");
        let help = syntax_error(FileId(0), src, e).help.unwrap_or_default();
        assert!(
            help.contains("`red#2` reads as `red` and then a comment"),
            "{help}"
        );
        // A comment after a blank, or a `#` inside a text, is no such mistake.
        for line in ["var xs: list of c = [red # 2", "log \"red#2\" ]"] {
            let src =
                format!("game \"G\" {{ players 2 }}\nenum c {{ red }}\n{line}\nvar y: int = 3\n");
            let e = RulesParser::parse(Rule::file, &src).expect_err("does not parse");
            let help = syntax_error(FileId(0), &src, e).help.unwrap_or_default();
            assert!(!help.contains("reads as"), "{line}: {help}");
        }
    }

    #[test]
    fn batches_and_halves_read_the_same_items_with_the_same_spans() {
        // Around every batch boundary.
        for n in [1, 63, 64, 65, 127, 128, 129, 200] {
            let src: String = (0..n)
                .map(|i| format!("var v{i}: int = {i}  # {i}\n\n"))
                .collect();
            let src = format!("\u{FEFF}game \"G\" {{ players 2 }}\n{src}");
            same_both_ways(&src, usize::MAX);
            same_both_ways(&src, 0);
        }
        // Every rules file of the project, split at its middle.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
        let mut read = 0;
        for entry in std::fs::read_dir(dir).expect("rules/") {
            let path = entry.expect("an entry").path();
            if path.extension().is_some_and(|e| e == "rules") {
                let own = std::fs::read_to_string(&path).expect("readable");
                same_both_ways(&own, usize::MAX);
                same_both_ways(&own, 0);
                read += 1;
            }
        }
        assert!(read >= 3, "only {read} rules files");
    }

    #[test]
    fn a_middle_inside_an_item_or_a_broken_half_reads_as_one() {
        let head: String = (0..100).map(|i| format!("var v{i}: int = {i}\n")).collect();
        let cases = [
            // The line after the middle looks like an item but is inside a text...
            format!("{head}def t(): int = count(\"\nvar x: int = 1\nvar y: int = 2\n\")\n{head}"),
            // ...or inside a block written at the margin.
            format!("{head}flow {{\nlog \"a\"\nlog \"b\"\n}}\n{head}"),
            // A syntax error in the second half, and one in the first.
            format!("{head}{head}enum e {{ a, b,, c }}\n"),
            format!("enum e {{ a, b,, c }}\n{head}{head}"),
            // A reserved word as a name: a lowering error on each side.
            format!("var if: int = 1\n{head}{head}var then: int = 2\n"),
        ];
        for src in &cases {
            for split_from in [0, usize::MAX] {
                same_both_ways(src, split_from);
            }
        }
    }

    #[test]
    fn an_item_broken_after_a_batch_is_the_whole_file_s_error() {
        for n in [10, 64, 65, 130] {
            let mut src: String = (0..n).map(|i| format!("var v{i}: int = {i}\n")).collect();
            src.push_str("enum e { a, b,, c }\nvar w: int = 1\n");
            let err = parse(FileId(0), &src).expect_err("a syntax error");
            let expected = RulesParser::parse(Rule::file, &src).expect_err("a syntax error");
            let pest::error::InputLocation::Pos(at) = expected.location else {
                panic!("a position")
            };
            assert!(src[..at].ends_with("b,"), "{}", &src[..at]);
            assert_eq!(err.len(), 1);
            assert_eq!(err[0].span.start as usize, at, "{n} items before");
        }
    }

    #[test]
    fn parses_header_and_vars() {
        let f = ok(
            "game \"G\" { players 2..4 }\nplayer var score: int = 0\nvar round: int in 0..10 = 0",
        );
        assert_eq!(f.items.len(), 3);
    }

    #[test]
    fn roll_with_and_without_count() {
        let f = ok("flow { let a = roll d6\n let b = roll 3 of d6\n log \"{a} {b}\" }");
        let ast::Item::Decl {
            decl: ast::Decl::Flow(flow),
            ..
        } = &f.items[0]
        else {
            panic!("not a flow")
        };
        assert_eq!(flow.body.stmts.len(), 3);
        let ast::StmtKind::Let {
            value: ast::LetValue::Roll { count, .. },
            ..
        } = &flow.body.stmts[1].kind
        else {
            panic!("not a roll")
        };
        assert!(count.is_some());
    }

    #[test]
    fn precedence_of_and_over_or() {
        let f = ok("def f(): bool = true or false and false");
        let ast::Item::Decl {
            decl: ast::Decl::Def(d),
            ..
        } = &f.items[0]
        else {
            panic!()
        };
        let ast::ExprKind::Binary { op, .. } = &d.body.kind else {
            panic!()
        };
        assert_eq!(*op, ast::BinOp::Or);
    }

    #[test]
    fn the_value_words_are_values_and_other_reserved_words_no_operands() {
        // The grammar takes every word but `if` and `by` for a name where an operand stands;
        // the lowering makes `true`, `false`, `none` and `me` values, with the word's span.
        let src = "def f(): list of bool = [true, false, none == me, trueish, me.x]";
        let f = ok(src);
        let ast::Item::Decl {
            decl: ast::Decl::Def(d),
            ..
        } = &f.items[0]
        else {
            panic!()
        };
        let ast::ExprKind::List(items) = &d.body.kind else {
            panic!()
        };
        assert!(matches!(items[0].kind, ast::ExprKind::Bool(true)));
        assert!(matches!(items[1].kind, ast::ExprKind::Bool(false)));
        let ast::ExprKind::Binary { lhs, rhs, .. } = &items[2].kind else {
            panic!()
        };
        assert!(matches!(lhs.kind, ast::ExprKind::None));
        assert!(matches!(rhs.kind, ast::ExprKind::Me));
        let at = src.find("me,").expect("`me`") as u32;
        assert_eq!((rhs.span.start, rhs.span.end), (at, at + 2));
        assert!(matches!(&items[3].kind, ast::ExprKind::Name(n) if n.text == "trueish"));
        let ast::ExprKind::Field { base, .. } = &items[4].kind else {
            panic!()
        };
        assert!(matches!(base.kind, ast::ExprKind::Me));
        // Called, or any other reserved word: refused as a name, as before.
        for src in [
            "def f(): bool = true(1)",
            "def f(): int = roll",
            "def f(): int = me(2)",
        ] {
            let errors = parse(FileId(0), src).expect_err(src);
            assert!(
                errors[0].message.contains("a reserved word"),
                "{src}: {}",
                errors[0].message
            );
        }
        // `if` and `by` still open their own operands.
        ok("def f(): int = if true then 1 else 2");
        ok("def f(): int = by players { 2: 1, 3: 2 }");
    }

    #[test]
    fn comprehension_argument() {
        let f = ok("def f(): int = count(p in players where p.x > 1)");
        let ast::Item::Decl {
            decl: ast::Decl::Def(d),
            ..
        } = &f.items[0]
        else {
            panic!()
        };
        let ast::ExprKind::Call { args, .. } = &d.body.kind else {
            panic!()
        };
        assert!(matches!(args[0].kind, ast::ExprKind::Comprehension(_)));
    }

    #[test]
    fn syntax_error_names_what_was_expected() {
        let e = parse(
            FileId(0),
            "game \"G\" { players 2..4 }\naction go { let = 3 }",
        )
        .unwrap_err();
        assert_eq!(e[0].code, "syntax-error");
        assert!(e[0].message.contains("a name"), "{}", e[0].message);
    }

    #[test]
    fn a_missing_operator_is_named_once_not_word_by_word() {
        let e = parse(
            FileId(0),
            "game \"G\" { players 2 }\nvar n: int = 0\nflow { n = (n 3) }",
        )
        .unwrap_err();
        assert_eq!(e[0].code, "syntax-error");
        assert!(
            e[0].message
                .starts_with("expected `(`, `.`, `[` or an operator, found `3"),
            "{}",
            e[0].message
        );
        // Where a statement may begin, it is named once too, not keyword by keyword.
        let e = parse(
            FileId(0),
            "game \"G\" { players 2 }\nvar n: int = 0\nflow { 3 }",
        )
        .unwrap_err();
        assert_eq!(e[0].message, "expected a statement, found `3`");
        // Where an operator may go, a word operator still parses.
        ok("game \"G\" { players 2 }\nvar n: int = 0\nflow { n = if n in [1] and not n > 2 or n <= 0 then n % 2 else -n }");
    }

    #[test]
    fn a_quoted_text_where_a_value_goes_is_explained() {
        let e = parse(FileId(0), "action go {\n  let x = \"red\"\n}").unwrap_err();
        assert!(e[0].message.contains("an expression"), "{}", e[0].message);
        let help = e[0].help.as_deref().unwrap_or("");
        assert!(help.contains("a quoted text is not a value"), "{help}");
    }

    #[test]
    fn a_title_without_its_block_asks_for_the_brace_after_it() {
        for (src, word) in [
            ("game \"G\"\nplayers 2..4\n", "`players`"),
            (
                "game \"G\" { players 2..4 }\nscenario \"s\" # why\n  players 3\n",
                "`players`",
            ),
            (
                "game \"G\" { players 2..4 }\nscenario \"s\"",
                "the end of the file",
            ),
        ] {
            let e = parse(FileId(0), src).unwrap_err();
            assert_eq!(e[0].code, "syntax-error");
            assert!(
                e[0].message
                    .starts_with("expected `{` after the title of `")
                    && e[0].message.ends_with(&format!("found {word}")),
                "{src:?}: {}",
                e[0].message
            );
            let span = e[0].span;
            assert!(
                span.start as usize > src.find('"').unwrap_or(0),
                "{src:?}: {span:?}"
            );
        }
        // A text cut short is still reported inside the text.
        let e = parse(FileId(0), "game \"G { players 2..4 }").unwrap_err();
        assert!(
            !e[0].message.contains("after the title"),
            "{}",
            e[0].message
        );
    }

    #[test]
    fn a_singleton_part_is_removed_by_its_keyword_alone() {
        let f = ok("remove winners\nadd var extra: int = 0\nremove action trade");
        assert_eq!(f.items.len(), 3);
        let ast::Item::Remove { kind, name, .. } = &f.items[0] else {
            panic!("not a removal")
        };
        assert_eq!(
            (*kind, name.text.as_str()),
            (ast::PartKind::Winners, "winners")
        );
        assert!(matches!(
            &f.items[2],
            ast::Item::Remove { kind: ast::PartKind::Action, name, .. } if name.text == "trade"
        ));
    }

    #[test]
    fn nesting_is_parsed_once_per_level() {
        // A grammar that re-parses after a failed alternative doubles its work at every level:
        // 40 levels would then never finish.
        let n = 40;
        let calls = format!("{}-1{}", "abs(".repeat(n), ")".repeat(n));
        let lists = format!("{}1{}", "count([".repeat(n), "])".repeat(n));
        ok(&format!("def f(): int = {calls} + {lists}"));
    }

    #[test]
    fn nesting_at_the_limit_parses_on_a_small_stack() {
        // pest's own stack guard is off (see Cargo.toml): `too_deep` alone keeps the parser
        // off the end of the stack, so the deepest nesting it lets through must parse on a
        // thread with less stack than a test thread has.
        let n = MAX_NESTING / 2;
        let forms = [
            format!("{}1{}", "(".repeat(2 * n), ")".repeat(2 * n)),
            format!("count({}1{})", "[".repeat(2 * n - 1), "]".repeat(2 * n - 1)),
            format!("{}1{}", "abs(".repeat(2 * n), ")".repeat(2 * n)),
            format!("{}1{}", "abs([".repeat(n), "])".repeat(n)),
            format!("{}1{}", "count(x in [".repeat(n), "])".repeat(n)),
            format!("{}1{}", "[f(x) for x in [".repeat(n), "]]".repeat(n)),
        ];
        for form in forms {
            let src = format!("def f(): int = {form}");
            assert!(too_deep(&src).is_none());
            std::thread::Builder::new()
                .stack_size(1 << 20)
                .spawn(move || ok(&src))
                .expect("thread")
                .join()
                .expect("parses without overflowing the stack");
        }
    }

    #[test]
    fn keywords_are_the_grammars_kw_rules() {
        let grammar = include_str!("../../grammar/meeple.pest");
        let mut from_grammar: Vec<&str> = grammar
            .lines()
            .filter_map(|l| l.strip_prefix("kw_"))
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        from_grammar.sort_unstable();
        assert_eq!(KEYWORDS, from_grammar.as_slice());
    }

    #[test]
    fn scenario_steps_over_and_refused_are_read_as_steps_only_when_they_end_there() {
        use ast::{Decl, StepKind};
        let f = ok("scenario \"s\" {\n  expect not over\n  expect not over_time\n  expect not over == 2\n  expect refused \"a\" because \"b\"\n  expect refused P2 \"a\"\n  before setup { rolls 1, 2  picks P1 }\n}");
        let ast::Item::Decl {
            decl: Decl::Scenario(sc),
            ..
        } = &f.items[0]
        else {
            panic!("a scenario")
        };
        let kinds: Vec<&StepKind> = sc.steps.iter().map(|s| &s.kind).collect();
        assert!(matches!(kinds[0], StepKind::ExpectOver(false)));
        assert!(matches!(kinds[1], StepKind::Expect(_)));
        assert!(matches!(kinds[2], StepKind::Expect(_)));
        assert!(matches!(
            kinds[3],
            StepKind::ExpectRefused {
                seat: None,
                because: Some(_),
                ..
            }
        ));
        assert!(matches!(
            kinds[4],
            StepKind::ExpectRefused {
                seat: Some(_),
                because: None,
                ..
            }
        ));
        let StepKind::BeforeSetup(inner) = kinds[5] else {
            panic!("before setup")
        };
        assert!(matches!(&inner[0].kind, StepKind::Rolls(xs) if xs.len() == 2));
        assert!(matches!(&inner[1].kind, StepKind::Picks(xs) if xs.len() == 1));
    }

    #[test]
    fn a_misspelt_keyword_gets_a_suggestion() {
        for (src, word, meant) in [
            ("action go { lett x = 3 }", "lett", "let"),
            (
                "action go {\n  requre 1 > 0 else \"no\"\n}",
                "requre",
                "require",
            ),
            ("acton go \"Go\" { }", "acton", "action"),
        ] {
            let e = parse(FileId(0), src).unwrap_err();
            assert_eq!(
                e[0].message,
                format!("`{word}` is not a keyword: did you mean `{meant}`?"),
                "{src}"
            );
            assert_eq!(&src[e[0].span.start as usize..e[0].span.end as usize], word);
        }
    }

    /// The source with every fix of the first error applied.
    fn fixed(src: &str) -> String {
        let e = parse(FileId(0), src).unwrap_err();
        assert_eq!(e[0].fixes.len(), 1, "{:?}", e[0]);
        let (range, new) = e[0].fixes[0].edit(src).unwrap();
        let mut out = src.to_string();
        out.replace_range(range, &new);
        out
    }

    #[test]
    fn a_misspelt_keyword_and_a_semicolon_have_fixes() {
        assert_eq!(
            fixed("action go {\n  lett x = 3\n}"),
            "action go {\n  let x = 3\n}"
        );
        assert_eq!(
            fixed("action go \"Go\" {\n  let x = 3;\n}\n"),
            "action go \"Go\" {\n  let x = 3\n}\n"
        );
        let two = fixed("action go \"Go\" {\n  let x = 3;  let y = x\n}\n");
        assert_eq!(two, "action go \"Go\" {\n  let x = 3\n  let y = x\n}\n");
        assert!(parse(FileId(0), &two).is_ok());
    }

    #[test]
    fn a_missing_brace_points_at_the_brace_left_open() {
        let src = "flow {\n  for p in players {\n    turn p\n\n}\naction go \"Go\" {\n}\n";
        let e = parse(FileId(0), src).unwrap_err();
        assert!(
            e[0].message.starts_with("a `{` is left open"),
            "{}",
            e[0].message
        );
        // The `{` of the `for`, whose `}` was taken by the flow's.
        assert_eq!(e[0].span.start as usize, src.find("players {").unwrap() + 8);
        assert_eq!(e[0].labels[0].message, "`action` begins a declaration here");
        // Two levels in: the `for`'s `}` is missing, the `while`'s closes the `for`, the flow's
        // closes the `while`; the `for` is the one to blame.
        let deeper = "flow {\n  while true {\n    for p in players {\n      turn p\n\n  }\n}\naction go \"Go\" {\n}\n";
        let e = parse(FileId(0), deeper).unwrap_err();
        assert_eq!(
            e[0].span.start as usize,
            deeper.find("players {").unwrap() + 8
        );
        let at_end = parse(FileId(0), "flow {\n  log \"{1}\" # {\n").unwrap_err();
        assert_eq!(at_end[0].span.start, 5, "{:?}", at_end[0]);
        // A file that closes every brace is not blamed on one.
        let other = parse(FileId(0), "flow { }\naction go \"Go\" { let = 3 }\n").unwrap_err();
        assert!(
            !other[0].message.contains("left open"),
            "{}",
            other[0].message
        );
    }

    #[test]
    fn every_reserved_word_is_refused_as_a_name_and_only_those() {
        assert!(
            RESERVED.windows(2).all(|w| w[0] < w[1]),
            "sorted, for the search"
        );
        for w in RESERVED {
            assert!(is_reserved(w), "{w}");
            let e = parse(FileId(0), &format!("var {w}: int = 0")).unwrap_err();
            assert_eq!(e[0].code, "syntax-error", "{w}");
            // A longer or shorter word is a name.
            ok(&format!("var {w}x: int = 0\nvar x{w}: int = 0"));
        }
        for w in [
            "a", "x", "d6", "players", "index", "owner", "score", "ands", "_if", "Me",
        ] {
            assert!(!is_reserved(w), "{w}");
        }
    }

    #[test]
    fn keywords_are_not_names_but_prefixes_are() {
        ok("var inner: int = 0\nvar order: int = 0\nvar secrets: int = 0");
        assert!(parse(FileId(0), "var in: int = 0").is_err());
    }
}
