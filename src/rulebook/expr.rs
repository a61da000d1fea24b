//! Expressions, texts and types in words, for readers who do not read code.
//!
//! Total over the AST: every node has a rendering, none panics, and nothing is printed with
//! `Debug`. Operators become words (`>=` is "is at least"), built-in functions become phrases
//! (`count(xs)` is "the number of xs"), `me` is "you", and a phrase is bracketed wherever its
//! place in a larger one would make it ambiguous. Names are kept as written, as the game shows
//! them while it is played.

use crate::ir::{Builtin, QueryKind};
use crate::syntax::ast::{
    BinOp, Comprehension, Expr, ExprKind, MapKey, Text, TextPart, TypeExpr, UnOp,
};

/// `if ... then ... else`, quantifiers and comprehensions: bracketed inside anything.
const LOW: u8 = 0;
/// `or`.
const OR: u8 = 1;
/// `and`.
const AND: u8 = 2;
/// `not` (and the operands of `and` and `or`, so that they never mix unbracketed).
const NOT: u8 = 3;
/// Comparisons and membership.
const CMP: u8 = 4;
/// `a to b`.
const RANGE: u8 = 5;
/// `+` and `-`.
const ADD: u8 = 6;
/// `×`, `÷` and `mod`.
const MUL: u8 = 7;
/// A negative sign.
const NEG: u8 = 8;
/// Names, numbers, calls, possessives: never bracketed.
const ATOM: u8 = 9;

thread_local! {
    /// Enum values shown otherwise than named (`jack shown as "J"`), while a book is drawn.
    static SHOWN: std::cell::RefCell<std::collections::HashMap<String, String>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// Runs `f` with enum values rendered as the game shows them (`jack` as "J", `market_crash`
/// as “Market crash”): `shown` maps each value's name to its text.
pub fn with_shown<T>(shown: std::collections::HashMap<String, String>, f: impl FnOnce() -> T) -> T {
    let before = SHOWN.with(|s| std::mem::replace(&mut *s.borrow_mut(), shown));
    let out = f();
    SHOWN.with(|s| *s.borrow_mut() = before);
    out
}

/// An enum value's name in words: as it is shown (see [`shown`]), or its name.
pub(super) fn value_words(name: &str) -> String {
    shown(name).unwrap_or_else(|| name.to_string())
}

/// How an enum value named `name` is shown, if otherwise than its name and in a word or more:
/// one word as it is, several in quotes. An abbreviation (`H` for `hearts`, `10` for `ten`)
/// reads worse than the name, which is kept.
fn shown(name: &str) -> Option<String> {
    SHOWN.with(|s| {
        let s = s.borrow();
        let t = s.get(name)?;
        if t.chars().count() < 3 {
            None
        } else if t.contains(char::is_whitespace) {
            Some(format!("“{t}”"))
        } else {
            Some(t.clone())
        }
    })
}

/// An expression in words: `me.coins >= 2 * n` is "your coins is at least 2 × n".
pub fn expr(e: &Expr) -> String {
    phrase(e).0
}

/// An expression in words, bracketed unless it is a name, a number or another single term.
pub fn term(e: &Expr) -> String {
    at(e, ATOM)
}

/// The phrase for `e` and how tightly it binds.
fn phrase(e: &Expr) -> (String, u8) {
    match &e.kind {
        ExprKind::Int(n) => (n.to_string(), if *n < 0 { NEG } else { ATOM }),
        ExprKind::Bool(b) => (yes_no(*b).to_string(), ATOM),
        ExprKind::None => ("none".to_string(), ATOM),
        ExprKind::Me => ("you".to_string(), ATOM),
        ExprKind::Name(n) => match n.text.as_str() {
            "player_count" => ("the number of players".to_string(), ATOM),
            "all_players" => ("every player, those out of the game too".to_string(), ATOM),
            other => (shown(other).unwrap_or_else(|| other.to_string()), ATOM),
        },
        // `nth(chart, r).event`, a table's value or an element's field: "the event of item r of
        // chart" (a possessive after "item r of chart" would seem to belong to the chart).
        ExprKind::Field { base, field } => match &base.kind {
            ExprKind::Call { name, args }
                if Builtin::by_name(&name.text) == Some(Builtin::Nth) && args.len() == 2 =>
            {
                (
                    format!(
                        "the {} of item {} of {}",
                        field.text,
                        term(&args[1]),
                        list_arg(&args[0])
                    ),
                    ATOM,
                )
            }
            _ => (format!("{} {}", possessive(base), field.text), ATOM),
        },
        ExprKind::Call { name, args } => call(&name.text, args),
        // `clue(colour: red, number: 3)`: "a clue with colour red and number 3".
        ExprKind::Record { name, fields } => {
            let given: Vec<String> = fields
                .iter()
                .map(|(f, v)| format!("{} {}", f.text, term(v)))
                .collect();
            let words = if given.is_empty() {
                format!("a default {}", name.text)
            } else {
                format!("{} with {}", article(&name.text), given.join(", "))
            };
            (words, ATOM)
        }
        // `xs[i]` reads as `nth(xs, i)` does: "item i of xs".
        ExprKind::Index { base, index } => {
            (format!("item {} of {}", term(index), list_arg(base)), ATOM)
        }
        ExprKind::Binary { op, lhs, rhs } => binary(*op, lhs, rhs),
        ExprKind::Unary {
            op: UnOp::Not,
            operand,
        } => (format!("not {}", at(operand, ATOM)), NOT),
        ExprKind::Unary {
            op: UnOp::Neg,
            operand,
        } => (format!("-{}", at(operand, NEG)), NEG),
        ExprKind::If {
            cond,
            then,
            otherwise,
        } => (
            format!(
                "if {} then {} else {}",
                at(cond, OR),
                at(then, OR),
                at(otherwise, LOW)
            ),
            LOW,
        ),
        ExprKind::List(items) if items.is_empty() => ("empty".to_string(), ATOM),
        ExprKind::List(items) => (
            format!(
                "[{}]",
                items.iter().map(expr).collect::<Vec<_>>().join(", ")
            ),
            ATOM,
        ),
        ExprKind::Comprehension(c) => (comprehension(c), LOW),
        ExprKind::ByPlayers(rows) => {
            let rows: Vec<String> = rows
                .iter()
                .map(|(k, v)| format!("{} with {}", at(v, OR), players_key(k)))
                .collect();
            (format!("({})", rows.join("; ")), ATOM)
        }
    }
}

/// `e` bracketed if it binds more loosely than `min`.
fn at(e: &Expr, min: u8) -> String {
    let (s, p) = phrase(e);
    if p < min {
        format!("({s})")
    } else {
        s
    }
}

/// "yes" or "no", as the game shows truth values.
pub fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// `me` as "your", a name as "p's", `it` as "its", anything else as "the ... of (x)" — the
/// words before a field's name.
pub fn possessive(base: &Expr) -> String {
    match &base.kind {
        ExprKind::Me => "your".to_string(),
        ExprKind::Name(n) if n.text == "it" => "its".to_string(),
        ExprKind::Name(n) => format!("{}'s", n.text),
        ExprKind::Field { .. } => format!("{}'s", expr(base)),
        _ => format!("{}'s", at(base, ATOM)),
    }
}

/// A place written on the left of `=`: `me.coins` is "your coins".
pub fn place(names: &[crate::syntax::ast::Name]) -> String {
    match names {
        [] => "(nothing)".to_string(),
        [one] => one.text.clone(),
        [first, rest @ ..] => {
            let mut out = match first.text.as_str() {
                "me" => "your".to_string(),
                "it" => "its".to_string(),
                other => format!("{other}'s"),
            };
            for (i, n) in rest.iter().enumerate() {
                out.push(' ');
                out.push_str(&n.text);
                if i + 1 < rest.len() {
                    out.push_str("'s");
                }
            }
            out
        }
    }
}

/// A `by players` key: `2` is "2 players", `3..4` "3 to 4 players".
fn players_key(k: &Expr) -> String {
    match &k.kind {
        ExprKind::Int(1) => "1 player".to_string(),
        ExprKind::Binary {
            op: BinOp::Range,
            lhs,
            rhs,
        } => format!("{} to {} players", term(lhs), term(rhs)),
        _ => format!("{} players", term(k)),
    }
}

fn binary(op: BinOp, lhs: &Expr, rhs: &Expr) -> (String, u8) {
    let logic = |own: BinOp, side: &Expr| match &side.kind {
        ExprKind::Binary { op, .. } if *op == own => expr(side),
        _ => at(side, NOT),
    };
    match op {
        BinOp::Or | BinOp::And => {
            let word = if op == BinOp::Or { "or" } else { "and" };
            let prec = if op == BinOp::Or { OR } else { AND };
            (
                format!("{} {word} {}", logic(op, lhs), logic(op, rhs)),
                prec,
            )
        }
        BinOp::In | BinOp::NotIn => {
            let listed = matches!(rhs.kind, ExprKind::List(ref xs) if !xs.is_empty());
            let word = match (op == BinOp::In, listed) {
                (true, true) => "is one of",
                (true, false) => "is in",
                (false, true) => "is not one of",
                (false, false) => "is not in",
            };
            (format!("{} {word} {}", at(lhs, RANGE), at(rhs, RANGE)), CMP)
        }
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            let word = match op {
                BinOp::Eq => "is",
                BinOp::Ne => "is not",
                BinOp::Lt => "is less than",
                BinOp::Le => "is at most",
                BinOp::Gt => "is more than",
                _ => "is at least",
            };
            (format!("{} {word} {}", at(lhs, RANGE), at(rhs, RANGE)), CMP)
        }
        BinOp::Range => (format!("{} to {}", at(lhs, ADD), at(rhs, ADD)), RANGE),
        BinOp::Add | BinOp::Sub => {
            let sym = if op == BinOp::Add { "+" } else { "-" };
            (format!("{} {sym} {}", at(lhs, ADD), at(rhs, MUL)), ADD)
        }
        BinOp::Mul | BinOp::Div | BinOp::Mod => {
            let sym = match op {
                BinOp::Mul => "×",
                BinOp::Div => "÷",
                _ => "mod",
            };
            (format!("{} {sym} {}", at(lhs, MUL), at(rhs, NEG)), MUL)
        }
    }
}

/// A list given to a built-in: a comprehension without its brackets, or a single term.
fn list_arg(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Comprehension(c) => comprehension_bare(c),
        _ => at(e, ATOM),
    }
}

/// `[x in xs where c]` as "the x in xs where c"; `[f(x) for x in xs]` as "the list of f(x)
/// for each x in xs".
fn comprehension(c: &Comprehension) -> String {
    match &c.map {
        Some(_) => format!("the list of {}", comprehension_bare(c)),
        None if c.filter.is_none() && c.keys.is_empty() => {
            format!("every {} in {}", c.var.text, at(&c.source, ATOM))
        }
        None => format!("the {}", comprehension_bare(c)),
    }
}

/// A comprehension's words without an article: "x in xs where c", "f(x) for each x in xs".
fn comprehension_bare(c: &Comprehension) -> String {
    let mut out = match &c.map {
        Some(m) => format!(
            "{} for each {} in {}",
            at(m, CMP),
            c.var.text,
            at(&c.source, RANGE)
        ),
        None => format!("{} in {}", c.var.text, at(&c.source, RANGE)),
    };
    if let Some(f) = &c.filter {
        out.push_str(" where ");
        out.push_str(&at(f, OR));
    }
    if !c.keys.is_empty() {
        out.push_str(" by ");
        out.push_str(&keys(&c.keys, "", ""));
    }
    out
}

/// Sort keys: "k1, then k2"; with `high`/`low` words, a negated key flips its direction.
fn keys(keys: &[Expr], high: &str, low: &str) -> String {
    keys.iter()
        .map(|k| match (&k.kind, high.is_empty()) {
            (_, true) => at(k, CMP),
            (
                ExprKind::Unary {
                    op: UnOp::Neg,
                    operand,
                },
                false,
            ) => format!("{low} {}", without_article(&at(operand, CMP))),
            (_, false) => format!("{high} {}", without_article(&at(k, CMP))),
        })
        .collect::<Vec<_>>()
        .join(", then ")
}

/// A call: built-ins in words, a def as written (`total(p)`).
fn call(name: &str, args: &[Expr]) -> (String, u8) {
    if let (Some(kind), [arg]) = (QueryKind::by_name(name), args) {
        return quantifier(kind, arg);
    }
    if let Some(words) = Builtin::by_name(name).and_then(|b| builtin(b, args)) {
        return words;
    }
    let s = if name == "score" && args.len() == 1 {
        // A def of the designer's named `score` would shadow it; the words fit either way.
        format!("{} score", possessive(&args[0]))
    } else {
        call_words(name, &args.iter().map(expr).collect::<Vec<_>>())
    };
    (s, loose_or_atom(args))
}

/// A phrase whose arguments run on ("the total of x for each x in xs") is bracketed wherever
/// something follows it.
fn loose_or_atom(args: &[Expr]) -> u8 {
    let loose = args
        .iter()
        .any(|a| matches!(a.kind, ExprKind::Comprehension(_)));
    if loose {
        LOW
    } else {
        ATOM
    }
}

/// A call of a built-in in its declared words (`ir::Builtin::facts`), or `None` if it has the
/// wrong number of arguments (then it reads as written).
fn builtin(b: Builtin, args: &[Expr]) -> Option<(String, u8)> {
    let facts = b.facts();
    let with_default = facts.takes_default && args.len() == facts.arity + 1;
    if args.len() != facts.arity && !with_default {
        return None;
    }
    let mut s = fill(facts.words.text, args);
    // `reverse(sort(xs))` reads as one order.
    if let (Builtin::Reverse, ExprKind::Call { name, args: inner }) = (b, &args[0].kind) {
        if Builtin::by_name(&name.text) == Some(Builtin::Sort) && inner.len() == 1 {
            s = format!("{} in decreasing order", term(&inner[0]));
        }
    }
    if with_default {
        s = format!("{s} ({} if there is none)", term(&args[facts.arity]));
    }
    if facts.words.comparison {
        return Some((s, CMP));
    }
    Some((s, loose_or_atom(args)))
}

/// A built-in's words with its arguments in their places: `{0}` a term, `{list 0}` the same
/// with a comprehension bare (see `ir::Words`).
fn fill(text: &str, args: &[Expr]) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some((before, after)) = rest.split_once('{') {
        out.push_str(before);
        let Some((place, after)) = after.split_once('}') else {
            rest = after;
            break;
        };
        let (bare, index) = match place.strip_prefix("list ") {
            Some(i) => (true, i),
            None => (false, place),
        };
        if let Some(a) = index.parse::<usize>().ok().and_then(|i| args.get(i)) {
            out.push_str(&if bare { list_arg(a) } else { term(a) });
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// An expression as a value to name or set: a condition reads "whether ...".
pub fn value(e: &Expr) -> String {
    let (s, p) = phrase(e);
    if (OR..=CMP).contains(&p) {
        format!("whether {s}")
    } else {
        s
    }
}

/// A call of the designer's def, effect or phase in words, with no code's brackets:
/// `card_values()` is "card values", `in_team(p, t)` "in team of p and t".
pub fn call_words(name: &str, args: &[String]) -> String {
    let words = name.replace('_', " ");
    // `coin_of(p)` reads "coin of p", not "coin of of p".
    let of = if words.ends_with(" of") { "" } else { " of" };
    match args {
        [] => words,
        [one] => format!("{words}{of} {one}"),
        [rest @ .., last] => format!("{words}{of} {} and {last}", rest.join(", ")),
    }
}

/// `any`, `all`, `top`, `bottom` and `sorted` of a comprehension.
fn quantifier(kind: QueryKind, arg: &Expr) -> (String, u8) {
    let ExprKind::Comprehension(c) = &arg.kind else {
        return (format!("{}({})", kind.name(), expr(arg)), ATOM);
    };
    let source = format!("{} in {}", c.var.text, at(&c.source, ATOM));
    let filter = c.filter.as_ref().map(|f| at(f, OR));
    let filtered = match &filter {
        Some(f) => format!("{source} where {f}"),
        None => source.clone(),
    };
    match kind {
        QueryKind::Any => (
            match &filter {
                Some(f) => format!("there is some {source} where {f}"),
                None => format!("{source} is not empty"),
            },
            LOW,
        ),
        QueryKind::All => (
            match &filter {
                Some(f) => format!("for every {source}: {f}"),
                None => "yes".to_string(),
            },
            LOW,
        ),
        QueryKind::Top => (
            format!(
                "the {filtered} with {}",
                keys(&c.keys, "the greatest", "the least")
            ),
            LOW,
        ),
        QueryKind::Bottom => (
            format!(
                "the {filtered} with {}",
                keys(&c.keys, "the least", "the greatest")
            ),
            LOW,
        ),
        _ => (
            format!(
                "the {filtered}, ordered by {}",
                keys(&c.keys, "increasing", "decreasing")
            ),
            LOW,
        ),
    }
}

/// A text as it is written, in quotes, with each `{value}` in words: “you have \[n\] coins”.
pub fn text(t: &Text) -> String {
    format!("“{}”", text_inner(t))
}

/// A text's words without the quotes.
pub fn text_inner(t: &Text) -> String {
    let mut out = String::new();
    for part in &t.parts {
        match part {
            TextPart::Lit(s) => out.push_str(s),
            TextPart::Expr(e) => {
                out.push('[');
                match e.kind {
                    ExprKind::Me => out.push_str("your name"),
                    _ => out.push_str(&expr(e)),
                }
                out.push(']');
            }
            TextPart::If {
                cond,
                then,
                otherwise,
            } => {
                out.push_str(&format!("[if {}: “{}”", expr(cond), text_inner(then)));
                if let Some(o) = otherwise {
                    out.push_str(&format!(", otherwise “{}”", text_inner(o)));
                }
                out.push(']');
            }
            TextPart::Each {
                var,
                source,
                filter,
                body,
                sep,
            } => {
                out.push_str(&format!("[for each {} in {}", var.text, expr(source)));
                if let Some(f) = filter {
                    out.push_str(&format!(" where {}", expr(f)));
                }
                out.push_str(&format!(": “{}”", text_inner(body)));
                if let Some(s) = sep {
                    out.push_str(&format!(", separated by “{}”", text_inner(s)));
                }
                out.push(']');
            }
        }
    }
    out
}

/// A type in words: `int in 0..20` is "a number from 0 to 20".
pub fn type_words(t: &TypeExpr) -> String {
    match t {
        TypeExpr::Int { bounds: None, .. } => "a number".to_string(),
        TypeExpr::Int {
            bounds: Some(b), ..
        } => match &b.kind {
            ExprKind::Binary {
                op: BinOp::Range,
                lhs,
                rhs,
            } => format!("a number from {} to {}", at(lhs, NEG), at(rhs, NEG)),
            _ => format!("a number in {}", term(b)),
        },
        TypeExpr::Bool(_) => "yes or no".to_string(),
        TypeExpr::Player(_) => "a player".to_string(),
        TypeExpr::List(inner, _) => format!("a list of {}", plural_type(inner)),
        TypeExpr::Map(inner, k, _) => format!("{} for each {}", type_words(inner), key_words(k)),
        TypeExpr::Named(n) => article(&n.text),
    }
}

/// The keys of a map in words: its enum's or kind's name, "number from 1 to 5" for a range
/// (its ends in words where they follow the player count), or "player".
fn key_words(k: &MapKey) -> String {
    match k {
        MapKey::Enum(n) => n.text.clone(),
        MapKey::Range(e) => match &e.kind {
            ExprKind::Binary {
                op: BinOp::Range,
                lhs,
                rhs,
            } => format!("number from {} to {}", at(lhs, NEG), at(rhs, NEG)),
            _ => term(e),
        },
        MapKey::Player(_) => "player".to_string(),
    }
}

/// The element type of a list, in the plural where it reads naturally.
pub fn plural_type(t: &TypeExpr) -> String {
    match t {
        TypeExpr::Int { .. } => "numbers".to_string(),
        TypeExpr::Bool(_) => "yes-or-no values".to_string(),
        TypeExpr::Player(_) => "players".to_string(),
        TypeExpr::List(inner, _) => format!("lists of {}", plural_type(inner)),
        TypeExpr::Map(inner, k, _) => {
            format!("tables of {} by {}", plural_type(inner), key_words(k))
        }
        TypeExpr::Named(n) => plural(&n.text),
    }
}

/// A name in the plural, by the common English rules: card, cards; company, companies.
pub fn plural(word: &str) -> String {
    let consonant_y = word.ends_with('y')
        && !word.ends_with("ay")
        && !word.ends_with("ey")
        && !word.ends_with("oy")
        && !word.ends_with("uy");
    if consonant_y {
        format!("{}ies", &word[..word.len() - 1])
    } else if ["s", "x", "ch", "sh", "z"]
        .iter()
        .any(|e| word.ends_with(e))
    {
        format!("{word}es")
    } else {
        format!("{word}s")
    }
}

/// "a card", "an item".
pub fn article(word: &str) -> String {
    let vowel = word
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    if vowel {
        format!("an {word}")
    } else {
        format!("a {word}")
    }
}

/// "the number of x" as "number of x", after "the greatest".
fn without_article(s: &str) -> String {
    s.strip_prefix("the ").unwrap_or(s).to_string()
}

/// A `visible when` condition in words: `viewer` is "the viewer" and `owner` "its owner".
pub fn visibility_condition(e: &Expr) -> String {
    let mut e = e.clone();
    rename_bound(&mut e);
    expr(&e)
}

/// Renames the names bound in a visibility condition to the words that say what they are.
fn rename_bound(e: &mut Expr) {
    match &mut e.kind {
        ExprKind::Name(n) if n.text == "viewer" => n.text = "the viewer".to_string(),
        ExprKind::Name(n) if n.text == "owner" => n.text = "its owner".to_string(),
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::None
        | ExprKind::Me
        | ExprKind::Name(_) => {}
        ExprKind::Call { args, .. } | ExprKind::List(args) => {
            args.iter_mut().for_each(rename_bound)
        }
        ExprKind::Record { fields, .. } => fields.iter_mut().for_each(|(_, v)| rename_bound(v)),
        ExprKind::Field { base, .. } => rename_bound(base),
        ExprKind::Index { base, index } => {
            rename_bound(base);
            rename_bound(index);
        }
        ExprKind::Binary { lhs, rhs, .. } => {
            rename_bound(lhs);
            rename_bound(rhs);
        }
        ExprKind::Unary { operand, .. } => rename_bound(operand),
        ExprKind::If {
            cond,
            then,
            otherwise,
        } => {
            rename_bound(cond);
            rename_bound(then);
            rename_bound(otherwise);
        }
        ExprKind::Comprehension(c) => {
            rename_bound(&mut c.source);
            if let Some(f) = &mut c.filter {
                rename_bound(f);
            }
            if let Some(m) = &mut c.map {
                rename_bound(m);
            }
            c.keys.iter_mut().for_each(rename_bound);
        }
        ExprKind::ByPlayers(rows) => rows.iter_mut().for_each(|(_, v)| rename_bound(v)),
    }
}

/// An expression standing after a word such as "from": an `if` is bracketed.
pub fn clause(e: &Expr) -> String {
    match e.kind {
        ExprKind::If { .. } => format!("({})", expr(e)),
        _ => expr(e),
    }
}
