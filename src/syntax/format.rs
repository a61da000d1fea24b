//! `meeple fmt`: one canonical layout for a rules file, found token by token.
//!
//! The text is lexed into words, numbers, texts (whole, interpolations and all), punctuation and
//! comments; the layout only changes the whitespace between them, so a formatted file has the
//! same tokens, and therefore the same meaning, as the original. The result is checked: it must
//! lex to the same tokens again, or the file is left alone.
//!
//! The layout keeps the designer's line breaks (a run of blank lines becomes one), indents each
//! line by two spaces a level of open braces and brackets, one level more for a line that
//! continues an unfinished expression, puts one space between tokens or none by the rules of
//! `space_between` (two between statements on one line), keeps a trailing comment at its column where the code leaves room, and ends
//! the file with one newline.

use super::{parse, RulesParser, RESERVED};
use crate::diag::{Diagnostic, FileId};
use pest::Parser;

/// Why a file was not formatted.
#[derive(Debug)]
pub enum FormatError {
    /// It does not parse: the parser's diagnostics.
    Syntax(Vec<Diagnostic>),
    /// The layout would have changed its tokens (a bug in the formatter); it is left alone.
    Changed,
}

/// Formats a rules file; one that does not parse is returned as its diagnostics.
pub fn format(file: FileId, text: &str) -> Result<String, FormatError> {
    parse(file, text).map_err(FormatError::Syntax)?;
    let tokens = lex(text, &string_spans(text));
    let out = layout(&tokens);
    // The safety net: the formatted text must parse and consist of the same tokens.
    let same = parse(file, &out).is_ok() && {
        let again = lex(&out, &string_spans(&out));
        again.len() == tokens.len() && again.iter().zip(&tokens).all(|(a, b)| a.text == b.text)
    };
    if same {
        Ok(out)
    } else {
        Err(FormatError::Changed)
    }
}

/// The byte ranges of the texts (`"..."`) of a file that parses, outermost only, in order.
fn string_spans(text: &str) -> Vec<(usize, usize)> {
    let Ok(pairs) = RulesParser::parse(super::Rule::file, text) else {
        return Vec::new();
    };
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for pair in pairs.flatten() {
        if pair.as_rule() == super::Rule::string {
            let span = pair.as_span();
            if spans.last().is_none_or(|&(_, end)| span.start() >= end) {
                spans.push((span.start(), span.end()));
            }
        }
    }
    spans
}

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A name or a keyword.
    Word,
    /// A number.
    Int,
    /// A text, `"..."`, with its interpolations.
    Str,
    /// An operator or a bracket.
    Punct,
    /// `#` to the end of the line, trailing whitespace removed.
    Comment,
    /// Any other character (none in a file that parses).
    Other,
}

/// One token and the whitespace before it.
#[derive(Debug, Clone)]
struct Token<'a> {
    kind: Kind,
    text: &'a str,
    /// Line breaks between the previous token and this one.
    breaks: usize,
    /// Whether any whitespace stood before it.
    spaced: bool,
    /// Its column (in characters) in the source: where a trailing comment was put.
    column: usize,
}

/// The operators of two characters; every other punctuation token is one character.
const TWO_CHAR: [&str; 7] = ["==", "!=", "<=", ">=", "+=", "-=", ".."];

/// Splits `text` into tokens; `strings` are the byte ranges of its texts.
fn lex<'a>(text: &'a str, strings: &[(usize, usize)]) -> Vec<Token<'a>> {
    let mut tokens = Vec::new();
    let mut strings = strings.iter().peekable();
    let (mut breaks, mut spaced) = (0, false);
    let mut line_start = 0;
    let mut i = 0;
    while let Some(c) = text[i..].chars().next() {
        let start = i;
        while strings.peek().is_some_and(|s| s.0 < i) {
            strings.next();
        }
        let kind = match c {
            '"' if strings.peek().is_some_and(|s| s.0 == i) => {
                let (_, end) = *strings.next().unwrap_or(&(i, i + 1));
                i = end.clamp(i + 1, text.len());
                Kind::Str
            }
            '\n' => {
                (breaks, spaced, line_start) = (breaks + 1, true, i + 1);
                i += 1;
                continue;
            }
            ' ' | '\t' | '\r' | '\x0b' | '\x0c' => {
                spaced = true;
                i += 1;
                continue;
            }
            '#' => {
                i = text[i..].find('\n').map_or(text.len(), |n| i + n);
                Kind::Comment
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                i += text[i..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(text.len() - i);
                Kind::Word
            }
            c if c.is_ascii_digit() => {
                i += text[i..]
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(text.len() - i);
                Kind::Int
            }
            c if c.is_ascii_punctuation() => {
                let two = TWO_CHAR.iter().any(|op| text[i..].starts_with(op));
                i += if two { 2 } else { 1 };
                Kind::Punct
            }
            c => {
                i += c.len_utf8();
                Kind::Other
            }
        };
        let mut token_text = &text[start..i];
        if kind == Kind::Comment {
            token_text = token_text.trim_end();
        }
        tokens.push(Token {
            kind,
            text: token_text,
            breaks,
            spaced,
            column: text[line_start..start].chars().count(),
        });
        if kind == Kind::Str {
            if let Some(n) = token_text.rfind('\n') {
                line_start = start + n + 1;
            }
        }
        (breaks, spaced) = (0, false);
    }
    tokens
}

/// Words after which an expression is expected (so a `-` is a sign, and a line break continues).
const LEADS: [&str; 38] = [
    "and",
    "or",
    "not",
    "in",
    "if",
    "then",
    "else",
    "where",
    "by",
    "for",
    "of",
    "from",
    "when",
    "as",
    "named",
    "choose",
    "ask",
    "roll",
    "random",
    "turn",
    "tell",
    "require",
    "prefer",
    "repeat",
    "while",
    "window",
    "only",
    "shuffle",
    "until",
    "expect",
    "rolls",
    "picks",
    "shuffles",
    "pop",
    "most",
    "exactly",
    "winners",
    "eliminate",
];

/// Words that, first on a line, continue the expression of the line before.
const CONTINUES: [&str; 16] = [
    "and", "or", "then", "else", "where", "by", "in", "of", "not", "from", "when", "as", "listed",
    "shown", "visible", "only",
];

/// Whether `t` is the punctuation `text`.
fn is(t: &Token, text: &str) -> bool {
    t.kind == Kind::Punct && t.text == text
}

/// Whether `t` opens a bracket: `(`, `[` or `{`.
fn is_opener(t: &Token) -> bool {
    t.kind == Kind::Punct && matches!(t.text, "(" | "[" | "{")
}

/// Whether `t` closes a bracket: `)`, `]` or `}`.
fn is_closer(t: &Token) -> bool {
    t.kind == Kind::Punct && matches!(t.text, ")" | "]" | "}")
}

/// Whether `t` is a reserved word.
fn is_reserved(t: &Token) -> bool {
    t.kind == Kind::Word && RESERVED.contains(&t.text)
}

/// Reserved words that are values or types, or whole statements (`break`), which end an
/// expression rather than lead one.
const VALUES: [&str; 10] = [
    "me", "true", "false", "none", "bool", "int", "player", "return", "break", "continue",
];

/// Whether a value can end at `t`, so that a `-` after it subtracts rather than negates.
fn ends_value(t: &Token) -> bool {
    match t.kind {
        Kind::Int | Kind::Str => true,
        Kind::Word => !leads(t),
        Kind::Punct => is_closer(t),
        Kind::Comment | Kind::Other => false,
    }
}

/// Whether an expression must follow the word `t`.
fn leads(t: &Token) -> bool {
    t.kind == Kind::Word
        && (LEADS.contains(&t.text) || (is_reserved(t) && !VALUES.contains(&t.text)))
}

/// Whether `t` is the word `w`.
fn word(t: Option<&Token>, w: &str) -> bool {
    t.is_some_and(|t| t.kind == Kind::Word && t.text == w)
}

/// Words that begin a statement or a scenario step (`for` is left out: it also begins the tail of
/// a comprehension, `[f(x) for x in xs]`).
const STATEMENTS: [&str; 31] = [
    "set",
    "let",
    "expect",
    "play",
    "players",
    "seed",
    "run",
    "end",
    "log",
    "tell",
    "turn",
    "require",
    "prefer",
    "if",
    "while",
    "window",
    "repeat",
    "secretly",
    "rolls",
    "picks",
    "shuffles",
    "before",
    "return",
    "break",
    "continue",
    "match",
    "eliminate",
    "move",
    "remove",
    "reveal",
    "conceal",
];

/// Words that open a declaration: the name after them is not a statement.
const DECLARES: [&str; 15] = [
    "action",
    "table",
    "effect",
    "def",
    "phase",
    "kind",
    "enum",
    "die",
    "invariant",
    "show",
    "scenario",
    "add",
    "replace",
    "remove",
    "var",
];

/// The whitespace between `prev` and `next` on a line: none, one space, or two spaces between
/// two statements (`set a = 1  set b = 2`). `sign` is whether `prev` is a `-` that negates.
fn gap(prev: &Token, next: &Token, sign: bool) -> &'static str {
    let statements = ends_value(prev)
        && !(prev.kind == Kind::Word && DECLARES.contains(&prev.text))
        && next.kind == Kind::Word
        && STATEMENTS.contains(&next.text);
    match (statements, space_between(prev, next, sign)) {
        (true, _) => "  ",
        (false, true) => " ",
        (false, false) => "",
    }
}

/// Whether one space goes between `prev` and `next` on a line; `sign` is whether `prev` is a `-`
/// that negates.
fn space_between(prev: &Token, next: &Token, sign: bool) -> bool {
    use Kind::*;
    if matches!(prev.kind, Other) || matches!(next.kind, Other) {
        return next.spaced;
    }
    if is(prev, "(") || is(prev, "[") || is(next, ")") || is(next, "]") || is(next, ",") {
        return false;
    }
    if is(prev, ",") {
        return true;
    }
    if is(prev, ".") || is(next, ".") || is(prev, "..") || is(next, "..") || sign {
        return false;
    }
    if is(next, ":") {
        return false;
    }
    // A name before `(` or `[` may be a call (`f(x)`, `pile[5]`) or a clause keyword that
    // is free as a name (`from [a, b]`): keep whether the designer wrote a space.
    if (is(next, "(") || is(next, "[")) && prev.kind == Word && !is_reserved(prev) {
        return next.spaced;
    }
    // `f(x)[2]`, `[a, b][i]`: an index after a closing bracket, as written.
    if is(next, "[") && (is(prev, ")") || is(prev, "]")) {
        return next.spaced;
    }
    true
}

/// What an open bracket holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holds {
    /// Statements or declarations (`{` of a block, a game or a variant header).
    Statements,
    /// Comma-separated elements: `(`, `[`, and the `{` of an enum or a `by players` table.
    Elements,
}

/// An open bracket.
#[derive(Debug, Clone, Copy)]
struct Open {
    holds: Holds,
    /// The indent of a line that starts with its closer.
    base: usize,
}

/// The state of the layout between lines.
struct Layout<'t, 'a> {
    open: Vec<Open>,
    /// The last token that was not a comment, and the one before it.
    prev: Option<&'t Token<'a>>,
    before_prev: Option<&'t Token<'a>>,
    /// The word that opened the declaration being laid out (`table`'s braces hold rows).
    declaring: Option<&'a str>,
}

impl<'t, 'a> Layout<'t, 'a> {
    /// The indent of a line starting with `first`.
    fn indent(&self, first: &Token) -> usize {
        let top = self.open.last();
        if is_closer(first) {
            return top.map_or(0, |o| o.base);
        }
        let content = top.map_or(0, |o| o.base + 2);
        // The first line inside a bracket that ended the line above is at the bracket's level.
        if self.prev.is_some_and(is_opener) {
            return content;
        }
        let holds = top.map_or(Holds::Statements, |o| o.holds);
        if self.continues(first, holds) {
            content + 2
        } else {
            content
        }
    }

    /// Whether a line starting with `first` continues the expression of the line before.
    fn continues(&self, first: &Token, holds: Holds) -> bool {
        let Some(prev) = self.prev else {
            return false;
        };
        if is(first, "{") || (first.kind == Kind::Word && first.text == "else" && is(prev, "}")) {
            return false;
        }
        let first_continues = match first.kind {
            Kind::Punct => !is_opener(first),
            Kind::Word => CONTINUES.contains(&first.text),
            _ => false,
        };
        let prev_leads = match prev.kind {
            Kind::Punct if is(prev, ",") => holds == Holds::Statements,
            Kind::Punct => !is_opener(prev) && !is_closer(prev),
            // `visible last` at a line's end: its count follows on the next line.
            // A field named like a keyword (`nth(t, 1).picks`) is a name, and ends a value.
            Kind::Word => {
                (leads(prev) && !self.before_prev.is_some_and(|t| is(t, ".")))
                    || (matches!(prev.text, "first" | "last") && word(self.before_prev, "visible"))
            }
            _ => false,
        };
        first_continues || prev_leads
    }

    /// What a bracket opened by `t` holds, from the two tokens before it.
    fn holds(&self, t: &Token) -> Holds {
        if t.text != "{" {
            return Holds::Elements;
        }
        let enum_body = word(self.before_prev, "enum");
        let by_players = word(self.prev, "players") && word(self.before_prev, "by");
        let table = self.open.is_empty() && self.declaring == Some("table");
        if enum_body || by_players || table {
            Holds::Elements
        } else {
            Holds::Statements
        }
    }
}

/// Lays the tokens out as text.
fn layout(tokens: &[Token]) -> String {
    let mut out = String::new();
    let mut state = Layout {
        open: Vec::new(),
        prev: None,
        before_prev: None,
        declaring: None,
    };
    // Each line: the tokens from one line break to the next.
    let mut lines: Vec<&[Token]> = Vec::new();
    let mut start = 0;
    for i in 1..=tokens.len() {
        if i == tokens.len() || tokens[i].breaks > 0 {
            lines.push(&tokens[start..i]);
            start = i;
        }
    }
    // For each line, the first token of the next line with code.
    let mut next_code: Vec<Option<&Token>> = vec![None; lines.len()];
    for n in (0..lines.len().saturating_sub(1)).rev() {
        next_code[n] = match lines[n + 1].first() {
            Some(t) if t.kind != Kind::Comment => Some(t),
            _ => next_code[n + 1],
        };
    }
    for (n, line) in lines.iter().enumerate() {
        let Some(first) = line.first() else {
            continue;
        };
        if n > 0 {
            out.push('\n');
            if first.breaks > 1 {
                out.push('\n');
            }
        }
        // A comment alone on a line is indented as the next line of code.
        let lead = if first.kind == Kind::Comment {
            match next_code[n] {
                Some(t) if !is_closer(t) => state.indent(t),
                _ => state.open.last().map_or(0, |o| o.base + 2),
            }
        } else {
            state.indent(first)
        };
        out.extend(std::iter::repeat_n(' ', lead));
        let mut line_base = lead;
        let depth_at_start = state.open.len();
        let mut depth_floor = depth_at_start;
        let mut sign = false;
        let mut on_line: Option<&Token> = None;
        for t in line.iter() {
            if t.kind == Kind::Comment {
                if on_line.is_some() {
                    let line_start = out.rfind('\n').map_or(0, |n| n + 1);
                    let column = out[line_start..].chars().count();
                    let pad = if t.column > column {
                        t.column - column
                    } else {
                        1
                    };
                    out.extend(std::iter::repeat_n(' ', pad));
                }
                out.push_str(t.text);
                on_line = Some(t);
                continue;
            }
            if let Some(p) = on_line.filter(|p| p.kind != Kind::Comment) {
                out.push_str(gap(p, t, sign));
            }
            out.push_str(t.text);
            sign = is(t, "-") && !state.prev.is_some_and(ends_value);
            // Each top-level line starts a declaration (after `add` or `replace`, the next word).
            let patch = matches!(state.declaring, Some("add" | "replace"));
            if state.open.is_empty() && (on_line.is_none() || patch) {
                state.declaring = DECLARES.iter().find(|d| **d == t.text).copied();
            }
            if is_opener(t) {
                let holds = state.holds(t);
                state.open.push(Open {
                    holds,
                    base: line_base,
                });
            } else if is_closer(t) {
                if let Some(o) = state.open.pop() {
                    if state.open.len() < depth_floor {
                        line_base = o.base;
                        depth_floor = state.open.len();
                    }
                }
            }
            state.before_prev = state.prev;
            state.prev = Some(t);
            on_line = Some(t);
        }
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

#[cfg(test)]
#[path = "format_tests.rs"]
mod tests;
