//! The one walk over a statement's parts: the expressions it evaluates, the texts it writes, the
//! count of a choice of several, and the blocks it runs. Every pass that visits statements
//! (`roots`, `inline`, the coverage of `meeple sim`) goes through it, so that a new statement
//! kind is a compile error here, in one exhaustive match, and nowhere else is silently skipped.

use super::{BlockId, ChooseCount, Expr, Place, StmtKind, Text};

/// One thing a statement holds, borrowed (`E` is `&Expr` or `&mut Expr`, `T` likewise).
#[derive(Debug)]
pub enum Part<E, T> {
    /// An expression the statement evaluates: a value, a condition, a list, a player, the
    /// owner of the place it writes.
    Expr(E),
    /// How many elements a choice of several takes (`at most k of`, `exactly k of`).
    Count(E),
    /// A text it writes or asks with: a prompt, a log line, a reason.
    Text(T),
    /// A block of statements it runs.
    Block(BlockId),
}

/// A part read.
pub type PartRef<'a> = Part<&'a Expr, &'a Text>;
/// A part to change.
pub type PartMut<'a> = Part<&'a mut Expr, &'a mut Text>;

/// The match over every statement kind, written once for `&` and `&mut` (match ergonomics
/// borrow the fields as the statement is borrowed). Within each kind of part the order is
/// fixed: roots are numbered in it.
macro_rules! each_part {
    ($kind:expr, $f:expr) => {{
        let f = $f;
        // The owner of a place written, if an expression gives it.
        macro_rules! place {
            ($place:expr) => {
                match $place {
                    Place::PlayerVar(e, _) | Place::Field(e, _, _) => f(Part::Expr(e)),
                    Place::Local(_) | Place::Global(_) => {}
                }
            };
        }
        // How many a choice of several takes, if a number says it.
        macro_rules! count {
            ($count:expr) => {
                match $count {
                    Some(ChooseCount::AtMost(k) | ChooseCount::Exactly(k)) => f(Part::Count(k)),
                    Some(ChooseCount::Between(lo, hi)) => {
                        f(Part::Count(lo));
                        f(Part::Count(hi));
                    }
                    Some(ChooseCount::Any) | None => {}
                }
            };
        }
        match $kind {
            StmtKind::Let(_, e)
            | StmtKind::Random { from: e, .. }
            | StmtKind::Shuffle { from: e, .. }
            | StmtKind::Turn { player: e, .. }
            | StmtKind::Window { players: e, .. } => f(Part::Expr(e)),
            StmtKind::Roll { count, .. } => count.into_iter().for_each(|c| f(Part::Expr(c))),
            StmtKind::Assign {
                place: p, value, ..
            } => {
                place!(p);
                f(Part::Expr(value));
            }
            StmtKind::Pop {
                count,
                place: p,
                path,
                at,
                ..
            } => {
                count.into_iter().for_each(|c| f(Part::Expr(c)));
                path.into_iter().for_each(|i| f(Part::Expr(i)));
                at.into_iter().for_each(|i| f(Part::Expr(i)));
                place!(p);
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                f(Part::Expr(cond));
                f(Part::Block(*then));
                otherwise.into_iter().for_each(|b| f(Part::Block(*b)));
            }
            StmtKind::For {
                source,
                filter,
                body,
                ..
            } => {
                f(Part::Expr(source));
                filter.into_iter().for_each(|x| f(Part::Expr(x)));
                f(Part::Block(*body));
            }
            StmtKind::Repeat { count: e, body } | StmtKind::While { cond: e, body } => {
                f(Part::Expr(e));
                f(Part::Block(*body));
            }
            StmtKind::Match {
                value,
                arms,
                none,
                otherwise,
            } => {
                f(Part::Expr(value));
                let blocks = arms.iter().flatten().chain(&*none).chain(&*otherwise);
                blocks.for_each(|b| f(Part::Block(*b)));
            }
            StmtKind::Choose {
                player,
                options,
                prompt,
                count: k,
                ..
            } => {
                f(Part::Expr(player));
                f(Part::Expr(options));
                f(Part::Text(prompt));
                count!(k);
            }
            StmtKind::Secretly {
                players,
                options,
                prompt,
                count: k,
                then,
                ..
            } => {
                f(Part::Expr(players));
                f(Part::Expr(options));
                f(Part::Text(prompt));
                count!(k);
                f(Part::Block(*then));
            }
            StmtKind::Ask { player, prompt, .. } => {
                f(Part::Expr(player));
                f(Part::Text(prompt));
            }
            StmtKind::Tell { player, text } => {
                f(Part::Expr(player));
                f(Part::Text(text));
            }
            StmtKind::Reveal { item, .. } => f(Part::Expr(item)),
            StmtKind::Eliminate { player, reason } => {
                f(Part::Expr(player));
                reason.into_iter().for_each(|t| f(Part::Text(t)));
            }
            StmtKind::Log(text) => f(Part::Text(text)),
            StmtKind::Finish(text, winners) => {
                winners.into_iter().for_each(|w| f(Part::Expr(w)));
                text.into_iter().for_each(|t| f(Part::Text(t)));
            }
            StmtKind::Call { args, .. } => args.into_iter().for_each(|a| f(Part::Expr(a))),
            StmtKind::Return | StmtKind::Break | StmtKind::Continue => {}
        }
    }};
}

impl StmtKind {
    /// Calls `f` on each part of the statement (not the statements of its blocks, nor the
    /// expressions inside its expressions), in a fixed order within each kind of part.
    pub fn parts<'a>(&'a self, f: &mut dyn FnMut(PartRef<'a>)) {
        each_part!(self, f)
    }

    /// Calls `f` on each part of the statement to change it, as [`StmtKind::parts`] visits them.
    pub fn parts_mut<'a>(&'a mut self, f: &mut dyn FnMut(PartMut<'a>)) {
        each_part!(self, f)
    }

    /// The blocks it runs, in order (a `match`'s arms, then its `none` and `else` arms).
    pub fn blocks(&self) -> Vec<BlockId> {
        let mut out = Vec::new();
        self.parts(&mut |p| {
            if let Part::Block(b) = p {
                out.push(b);
            }
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::Part;
    use crate::ir::StmtKind;
    use crate::load::check_source;

    #[test]
    fn every_block_a_statement_runs_and_every_text_it_writes_is_a_part() {
        let src = r#"
game "Walk" { players 2 }
enum colour { red, blue }
var shade: colour = red
player var n: int = 0
flow {
  if shade == red { log "r" } else { log "b" }
  match shade { red { log "red" } else { log "other" } }
  secretly each p in players choose exactly 1 of x "Pick {p}" from [1, 2] then { p.n = 1 }
  for p in players where p.n > 0 { tell p "yes" }
}
"#;
        let program = check_source("walk.rules", src).program.expect("checks");
        let (mut blocks, mut texts, mut counts, mut exprs) = (Vec::new(), 0, 0, 0);
        for stmt in program.blocks.iter().flat_map(|b| &b.stmts) {
            blocks.extend(stmt.kind.blocks());
            stmt.kind.parts(&mut |p| match p {
                Part::Expr(_) => exprs += 1,
                Part::Count(_) => counts += 1,
                Part::Text(_) => texts += 1,
                Part::Block(_) => {}
            });
        }
        // Each block but the flow's own is run by one statement, and only once.
        let mut sorted = blocks.clone();
        sorted.sort_unstable_by_key(|b| b.index());
        sorted.dedup();
        assert_eq!(sorted.len(), blocks.len(), "{blocks:?}");
        assert_eq!(blocks.len(), program.blocks.len() - 1, "{blocks:?}");
        // Texts: four logs, the prompt and the tell; the count of `exactly 1`.
        assert_eq!((texts, counts), (6, 1));
        // Expressions: `if`, `match`, the players and options of `secretly`, the owner and
        // value of `p.n = 1`, the source and filter of `for`, the player told.
        assert_eq!(exprs, 9);
        let secretly = program
            .blocks
            .iter()
            .flat_map(|b| &b.stmts)
            .find_map(|s| match &s.kind {
                k @ StmtKind::Secretly { then, .. } => Some((k, *then)),
                _ => None,
            });
        let (kind, then) = secretly.expect("a secretly");
        assert_eq!(kind.blocks(), [then]);
    }
}
