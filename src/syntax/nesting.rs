//! The nesting scan: how deep the parser would recurse, found before pest runs (see
//! [`too_deep`]).

use super::MAX_NESTING;

/// Where the parser would recurse more than [`MAX_NESTING`] levels; a fast scan of the text,
/// before pest (which recurses once a level and has no depth limit of its own) ever sees it.
///
/// A level is an open bracket (`(`, `[`, `{`, or a `{` interpolation in a string), an `if` or
/// `of` not yet closed at its bracket level (`else if`, `then if`, `list of list of`), or a
/// `-` or `not` in a run of them. Strings are read as the grammar reads them, escapes included,
/// so a `#` or a bracket inside a string is text, not a comment or a level. The count of `if`s
/// and `of`s at a level starts again only at a token that the grammar cannot continue a chain
/// with (a statement keyword, an assignment); anything else counts, so the scan errs on the
/// side of refusing, never of letting a deeper file through.
pub(super) fn too_deep(text: &str) -> Option<usize> {
    let mut scan = NestingScan::default();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if scan.in_string() {
            match b {
                b'\\' => i += 1, // the escaped character is text, whatever it is
                b'"' => scan.close(),
                b'{' if scan.open(Level::Interpolation) => return Some(i),
                _ => {}
            }
            i += 1;
            continue;
        }
        match b {
            b'#' => {
                i = memchr_newline(bytes, i);
                continue;
            }
            b'"' => {
                scan.token(Token::Other);
                scan.levels.push(Level::String);
            }
            b'(' | b'[' | b'{' => {
                scan.token(Token::Other);
                if b == b'{' {
                    scan.block_of_if();
                }
                if scan.open(Level::Bracket(b == b'{')) {
                    return Some(i);
                }
            }
            b')' | b']' | b'}' => scan.close(),
            b'-' if bytes.get(i + 1) == Some(&b'=') => {
                scan.token(Token::Reset);
                i += 2;
                continue;
            }
            b'+' if bytes.get(i + 1) == Some(&b'=') => {
                scan.token(Token::Reset);
                i += 2;
                continue;
            }
            b'=' | b'!' | b'<' | b'>' if bytes.get(i + 1) == Some(&b'=') => {
                scan.token(Token::Other); // `==`, `!=`, `<=`, `>=`
                i += 2;
                continue;
            }
            b'=' => {
                scan.token(Token::Reset);
            }
            b'-' => {
                if scan.token(Token::Prefix) {
                    return Some(i);
                }
            }
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let end = bytes[i..]
                    .iter()
                    .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
                    .map_or(bytes.len(), |n| i + n);
                let word = &bytes[i..end];
                let token = match word {
                    b"if" => Token::If,
                    b"of" => Token::Chain,
                    b"then" => Token::Then,
                    b"else" => Token::Else,
                    b"not" if !next_word_is(bytes, end, b"in") => Token::Prefix,
                    b"let" | b"for" | b"repeat" | b"while" | b"window" | b"turn" | b"log"
                    | b"tell" | b"require" | b"prefer" | b"end" | b"eliminate" | b"secretly"
                    | b"var" | b"remove" | b"reveal" | b"conceal" => Token::Statement,
                    _ => Token::Name,
                };
                if scan.token(token) {
                    return Some(i);
                }
                i = end;
                continue;
            }
            b if b.is_ascii_whitespace() => {}
            b if b.is_ascii() => {
                scan.token(Token::Other);
            }
            _ => {
                // A character outside ASCII, outside a string: the parser will refuse it.
                scan.token(Token::Other);
                let c = text[i..].chars().next().map_or(1, char::len_utf8);
                i += c;
                continue;
            }
        }
        i += 1;
    }
    None
}

/// The index of the next newline at or after `from`, or the end.
fn memchr_newline(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|b| *b == b'\n')
        .map_or(bytes.len(), |n| from + n)
}

/// True if the next word after `at` (past whitespace) is `word`.
fn next_word_is(bytes: &[u8], at: usize, word: &[u8]) -> bool {
    let rest = &bytes[at..];
    let start = rest
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(rest.len());
    let rest = &rest[start..];
    rest.starts_with(word)
        && !rest
            .get(word.len())
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// What one token means to the nesting scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    /// `if`: one more level at this bracket level, until the chain ends; a statement's `if`
    /// hands its level over to its block.
    If,
    /// `then`: what follows is an expression, not a block.
    Then,
    /// `of`: one more level at this bracket level, until the chain ends.
    Chain,
    /// `else`: continues an `if` chain after its block.
    Else,
    /// `-` or `not` as a prefix: one more level while the run lasts.
    Prefix,
    /// A statement keyword, `=`, `+=` or `-=`: no chain goes on past it.
    Reset,
    /// Also a statement keyword: ends chains like [`Token::Reset`].
    Statement,
    /// A name.
    Name,
    /// Anything else.
    Other,
}

/// An open level of the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    /// `(`, `[` or `{` (true for a brace).
    Bracket(bool),
    /// Inside a string literal.
    String,
    /// A `{...}` inside a string.
    Interpolation,
}

/// The state of [`too_deep`]'s scan.
#[derive(Default)]
struct NestingScan {
    levels: Vec<Level>,
    /// Open brackets and interpolations.
    depth: usize,
    /// The `if`/`of` chain and `stmt_if` of each enclosing level, innermost last.
    chains: Vec<(usize, bool)>,
    /// True after an `if` that did not follow `else`, until `then` or its block: the `if` of a
    /// statement, whose block is its level.
    stmt_if: bool,
    /// True right after `else`.
    after_else: bool,
    /// The chain at the outermost level.
    chain: usize,
    /// The sum of the chains of every open level, this one included.
    chain_total: usize,
    /// `-` and `not` in a row.
    run: usize,
    /// True right after a `}` closed a level, until the next token.
    after_brace: bool,
}

impl NestingScan {
    fn in_string(&self) -> bool {
        self.levels.last() == Some(&Level::String)
    }

    fn nesting(&self) -> usize {
        self.depth + self.chain_total + self.run
    }

    /// Opens a level; true if that goes too deep.
    fn open(&mut self, level: Level) -> bool {
        self.levels.push(level);
        self.depth += 1;
        self.chains.push((self.chain, self.stmt_if));
        self.chain = 0;
        self.stmt_if = false;
        self.run = 0;
        self.nesting() > MAX_NESTING
    }

    /// Closes the innermost level (a stray closer is the parser's to report).
    fn close(&mut self) {
        self.run = 0;
        match self.levels.pop() {
            Some(Level::String) | None => {}
            Some(level) => {
                self.depth -= 1;
                self.chain_total -= self.chain;
                (self.chain, self.stmt_if) = self.chains.pop().unwrap_or((0, false));
                self.after_brace = matches!(level, Level::Bracket(true) | Level::Interpolation);
            }
        }
    }

    /// Reads one token; true if it goes too deep.
    fn token(&mut self, token: Token) -> bool {
        if std::mem::take(&mut self.after_brace)
            && matches!(
                token,
                Token::If | Token::Chain | Token::Name | Token::Statement
            )
        {
            // After a block, an `if`, a name or a statement keyword begins a new statement:
            // whatever chain was open at this level has ended. (`else` continues it.)
            self.end_chain();
            self.stmt_if = false;
        }
        let after_else = std::mem::replace(&mut self.after_else, token == Token::Else);
        match token {
            Token::If | Token::Chain => {
                if token == Token::If && !after_else {
                    self.stmt_if = true;
                }
                self.run = 0;
                self.chain += 1;
                self.chain_total += 1;
            }
            Token::Then => {
                self.run = 0;
                self.stmt_if = false;
            }
            Token::Prefix => self.run += 1,
            Token::Reset | Token::Statement => {
                self.run = 0;
                self.end_chain();
            }
            Token::Else | Token::Name | Token::Other => self.run = 0,
        }
        self.nesting() > MAX_NESTING
    }

    /// A `{` opens: if it is the block of a statement's `if`, the block stands for the `if`'s
    /// level. (An `else if`'s `if` keeps its level: the parser recurses once for each.)
    fn block_of_if(&mut self) {
        if std::mem::take(&mut self.stmt_if) && self.chain > 0 {
            self.chain -= 1;
            self.chain_total -= 1;
        }
    }

    fn end_chain(&mut self) {
        self.chain_total -= self.chain;
        self.chain = 0;
    }
}
