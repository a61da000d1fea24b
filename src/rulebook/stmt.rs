//! Statements in words: each statement a line of readable pseudo-code, indented by its depth.
//!
//! Total over the AST like [`super::expr`]: every statement has a sentence.

use super::expr::{expr, place, possessive, term, text};
use crate::diag::Span;
use crate::syntax::ast::{
    AssignOp, Block, ChooseCount, CountKind, Expr, ExprKind, LetValue, MatchValue, Name, PlaceStep,
    Stmt, StmtKind,
};

/// One line of pseudo-code: its depth of indentation and its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// How many levels it is indented.
    pub depth: usize,
    /// The sentence.
    pub text: String,
}

/// The statements of a block as lines, starting at `depth`.
pub fn block(b: &Block, depth: usize) -> Vec<Line> {
    let mut out = Vec::new();
    stmts(&b.stmts, depth, &mut out);
    out
}

/// Statements as lines, starting at `depth`; an empty list says that nothing happens.
pub fn stmts(list: &[Stmt], depth: usize, out: &mut Vec<Line>) {
    if list.is_empty() {
        push(out, depth, "nothing happens".to_string());
    }
    for s in list {
        stmt(s, depth, out);
    }
}

fn push(out: &mut Vec<Line>, depth: usize, text: String) {
    out.push(Line { depth, text });
}

/// The subject of a sentence about a player: "you" for `me`, the player otherwise.
pub fn subject(p: &Expr) -> (String, bool) {
    match p.kind {
        ExprKind::Me => ("you".to_string(), true),
        _ => (term(p), false),
    }
}

/// One statement as lines.
// Long because it is one match over every statement kind, an arm a sentence of the rulebook.
pub fn stmt(s: &Stmt, depth: usize, out: &mut Vec<Line>) {
    match &s.kind {
        StmtKind::Let { name, value, .. } => {
            push(
                out,
                depth,
                format!("let {} be {}", name.text, let_value(value)),
            );
        }
        StmtKind::Remove {
            place: p,
            index,
            at,
        } => {
            push(
                out,
                depth,
                format!("take item {} out of {}", term(at), stepped(p, index)),
            );
        }
        StmtKind::Assign {
            place: p,
            index,
            op,
            value,
        } => {
            let p = stepped(p, index);
            let line = match op {
                AssignOp::Set => format!("set {p} to {}", super::expr::value(value)),
                AssignOp::Add => format!("add {} to {p}", term_or_list(value)),
                AssignOp::Sub => format!("take {} from {p}", term_or_list(value)),
            };
            push(out, depth, line);
        }
        StmtKind::If {
            cond,
            then,
            otherwise,
        } => {
            push(out, depth, format!("if {}:", expr(cond)));
            stmts(&then.stmts, depth + 1, out);
            let mut rest = otherwise.as_ref();
            while let Some(b) = rest {
                match b.stmts.as_slice() {
                    [Stmt {
                        kind:
                            StmtKind::If {
                                cond,
                                then,
                                otherwise,
                            },
                        ..
                    }] => {
                        push(out, depth, format!("otherwise, if {}:", expr(cond)));
                        stmts(&then.stmts, depth + 1, out);
                        rest = otherwise.as_ref();
                    }
                    _ => {
                        push(out, depth, "otherwise:".to_string());
                        stmts(&b.stmts, depth + 1, out);
                        rest = None;
                    }
                }
            }
        }
        StmtKind::For {
            var,
            source,
            filter,
            body,
        } if turns_in_order(var, body).is_some() => {
            let only = turns_in_order(var, body).unwrap_or_default();
            let mut line = match (&source.kind, filter) {
                (ExprKind::Name(n), None) if n.text == "players" => {
                    "each player, in seat order, takes a turn".to_string()
                }
                _ => format!("each {} in {}", var.text, expr(source)),
            };
            if !line.ends_with("a turn") {
                if let Some(f) = filter {
                    line.push_str(&format!(" where {}", expr(f)));
                }
                line.push_str(", in that order, takes a turn");
            }
            line.push_str(&only);
            push(out, depth, line);
        }
        StmtKind::For {
            var,
            source,
            filter,
            body,
        } => {
            let mut line = format!("for each {} in {}", var.text, expr(source));
            if let Some(f) = filter {
                line.push_str(&format!(" where {}", expr(f)));
            }
            line.push(':');
            push(out, depth, line);
            stmts(&body.stmts, depth + 1, out);
        }
        StmtKind::Repeat { count, body } => {
            let times = match count.kind {
                ExprKind::Int(1) => "once".to_string(),
                ExprKind::Int(2) => "twice".to_string(),
                _ => format!("{} times", term(count)),
            };
            push(out, depth, format!("repeat {times}:"));
            stmts(&body.stmts, depth + 1, out);
        }
        StmtKind::While { cond, body } => {
            push(out, depth, format!("as long as {}:", expr(cond)));
            stmts(&body.stmts, depth + 1, out);
        }
        StmtKind::Turn { player, only } => {
            let (who, you) = subject(player);
            let verb = if you { "take" } else { "takes" };
            push(
                out,
                depth,
                format!("{who} {verb} a turn{}", only_words(only)),
            );
        }
        StmtKind::Window {
            players,
            only,
            until,
        } => push(
            out,
            depth,
            format!(
                "the seats of {} take turns in order, round and round{}; this ends once every \
                 seat has taken {} since the last other move",
                expr(players),
                only_words(only),
                until.text
            ),
        ),
        StmtKind::Log(t) => push(out, depth, format!("announce {}", text(t))),
        StmtKind::Tell { player, text: t } => {
            let (who, you) = subject(player);
            let line = if you {
                format!("you alone are told {}", text(t))
            } else {
                format!("tell {who} alone {}", text(t))
            };
            push(out, depth, line);
        }
        StmtKind::Require { cond, reason } => {
            push(
                out,
                depth,
                format!("require {} (otherwise: {})", expr(cond), text(reason)),
            );
        }
        StmtKind::Prefer(value) => {
            push(
                out,
                depth,
                format!("the bots favour this move by {}", expr(value)),
            );
        }
        StmtKind::Finish(why, winners) => {
            let mut line = match why {
                None => "the game ends".to_string(),
                Some(why) => format!("the game ends: {}", text(why)),
            };
            match winners {
                Some(Expr {
                    kind: ExprKind::List(xs),
                    ..
                }) if xs.is_empty() => line.push_str("; nobody wins"),
                Some(w) => line.push_str(&format!("; the winners are {}", expr(w))),
                None => {}
            }
            push(out, depth, line);
        }
        StmtKind::Eliminate { player, reason } => {
            let (who, you) = subject(player);
            let verb = if you { "are" } else { "is" };
            let why = match reason {
                Some(r) => format!(" ({})", text(r)),
                None => String::new(),
            };
            push(out, depth, format!("{who} {verb} out of the game{why}"));
        }
        StmtKind::Reveal { item, shown: true } => push(
            out,
            depth,
            format!(
                "turn {} face up: everyone sees it, wherever it lies, until it is concealed",
                term(item)
            ),
        ),
        StmtKind::Reveal { item, shown: false } => push(
            out,
            depth,
            format!(
                "turn {} face down again: only those who may see where it lies see it",
                term(item)
            ),
        ),
        StmtKind::Secretly {
            player,
            players,
            count,
            choice,
            prompt,
            options,
            then,
        } => {
            push(
                out,
                depth,
                format!(
                    "each {} in {} at the same time chooses {}{} in secret from {} ({}); then, for each of them in turn:",
                    player.text,
                    term(players),
                    choice.text,
                    count
                        .as_ref()
                        .map_or(String::new(), |c| format!(" ({})", how_many(c))),
                    super::expr::clause(options),
                    text(prompt)
                ),
            );
            stmts(&then.stmts, depth + 1, out);
        }
        StmtKind::Call { name, args } => {
            let args: Vec<String> = args.iter().map(expr).collect();
            push(out, depth, super::expr::call_words(&name.text, &args));
        }
        StmtKind::Match { value, arms } => {
            push(out, depth, format!("depending on {}:", expr(value)));
            for arm in arms {
                let line = if arm.values.is_empty() {
                    "otherwise:".to_string()
                } else {
                    let values: Vec<String> = arm
                        .values
                        .iter()
                        .map(|v| match v {
                            MatchValue::Name(n) => super::expr::value_words(&n.text),
                            MatchValue::None(_) => "none".to_string(),
                        })
                        .collect();
                    format!("if it is {}:", values.join(" or "))
                };
                push(out, depth + 1, line);
                stmts(&arm.body.stmts, depth + 2, out);
            }
        }
        StmtKind::Return => push(out, depth, "stop here: the rest is skipped".to_string()),
        StmtKind::Break => push(out, depth, "stop the loop here".to_string()),
        StmtKind::Continue => push(
            out,
            depth,
            "skip the rest of this pass of the loop".to_string(),
        ),
    }
}

/// " (only: a, b)" for `turn p only a, b`; nothing for a plain `turn p`.
fn only_words(only: &[Name]) -> String {
    if only.is_empty() {
        return String::new();
    }
    let names: Vec<&str> = only.iter().map(|n| n.text.as_str()).collect();
    format!(" (only: {})", names.join(", "))
}

/// A loop whose whole body is a turn of its own variable (`for p in players { turn p }`):
/// the words for the actions offered, if it is one.
fn turns_in_order(var: &Name, body: &Block) -> Option<String> {
    match body.stmts.as_slice() {
        [Stmt {
            kind: StmtKind::Turn { player, only },
            ..
        }] => match &player.kind {
            ExprKind::Name(n) if n.text == var.text => Some(only_words(only)),
            _ => None,
        },
        _ => None,
    }
}

/// The value added to or taken from a place: a single term, or a list in brackets.
fn term_or_list(e: &Expr) -> String {
    term(e)
}

/// How many elements a choice of several takes, in words (`any number of elements`).
fn how_many(count: &ChooseCount) -> String {
    match &count.kind {
        CountKind::Any => "any number of elements".to_string(),
        CountKind::AtMost(k) => format!("at most {} elements", term(k)),
        CountKind::Exactly(k) => format!("exactly {} elements", term(k)),
        CountKind::Between(range) => format!("{} elements", between(range)),
    }
}

/// `lo..hi` as "lo to hi" (anything else as written).
pub(super) fn between(range: &Expr) -> String {
    match &range.kind {
        crate::syntax::ast::ExprKind::Binary {
            op: crate::syntax::ast::BinOp::Range,
            lhs,
            rhs,
        } => format!("{} to {}", term(lhs), term(rhs)),
        _ => term(range),
    }
}

/// The right-hand side of a `let`, in words.
pub fn let_value(v: &LetValue) -> String {
    match v {
        LetValue::Expr(e) => super::expr::value(e),
        LetValue::Choose {
            player,
            prompt,
            options,
            secret,
            count,
            always_ask,
        } => format!(
            "{} {}choice {}from {} ({}){}",
            possessive(player),
            if *secret { "secret " } else { "" },
            count
                .as_ref()
                .map_or(String::new(), |c| format!("of {} ", how_many(c))),
            super::expr::clause(options),
            text(prompt),
            if always_ask.is_some() {
                ", asked even when there is a single option"
            } else {
                ""
            }
        ),
        LetValue::Ask {
            player,
            prompt,
            words,
        } => {
            let (yes, no) = match words {
                Some((y, n)) => (y.text.clone(), n.text.clone()),
                None => ("yes".to_string(), "no".to_string()),
            };
            format!(
                "{} answer to {} ({yes} = yes, {no} = no)",
                possessive(player),
                text(prompt)
            )
        }
        LetValue::Roll { count: None, die } => format!("a roll of {}", die.text),
        LetValue::Roll {
            count: Some(n),
            die,
        } => format!("a roll of {} {} dice", term(n), die.text),
        LetValue::Random(xs) => match &xs.kind {
            ExprKind::Name(n) if n.text == "players" => "a player drawn at random".to_string(),
            _ => format!("one of {} drawn at random", expr(xs)),
        },
        LetValue::Shuffle(xs) => format!("{} shuffled", term(xs)),
        LetValue::Pop {
            place: p,
            index,
            at: Some(i),
            ..
        } => format!("item {} of {}, taken out of it", term(i), stepped(p, index)),
        LetValue::Pop {
            count,
            place: p,
            index,
            ..
        } => match count {
            None => format!("the last of {}, taken off it", stepped(p, index)),
            Some(n) => format!(
                "the last {} of {}, taken off it",
                term(n),
                stepped(p, index)
            ),
        },
    }
}

/// A place and its `[i]` and `.field` steps: "item 2 of the rows of P1".
fn stepped(p: &[Name], index: &[(PlaceStep, Span)]) -> String {
    index.iter().fold(place(p), |p, (step, _)| match step {
        PlaceStep::Index(i) => format!("item {} of {p}", term(i)),
        PlaceStep::Field(f) => format!("the {} of {p}", f.text),
    })
}
