//! The keys written after a map's `by` (`check::maps` holds what reads and writes a map):
//! an enum, a range of numbers, `player`, or a kind, and how many entries each gives.
//!
//! A map by a kind (`int by card`) has one entry per instance, as many as the kind has when
//! the game starts; a kind's count may follow the player count (`kind pawn[player_count + 1]`),
//! so it is worked out here for every count the game allows, as the engine will work it out,
//! and a kind whose count cannot be is refused. A range's ends may follow the player count
//! too (`int by 1..player_count`): they are worked out for every count, kept in
//! `Program::key_ranges`, and the engine takes the count played.

use super::consts;
use super::scope::{suggest, Symbol};
use super::Checker;
use crate::diag::Diagnostic;
use crate::ir::{self, KeyRange, MapKey};
use crate::syntax::ast;

/// The most keys a map by a range may have: its entries are kept in every game's state.
const MAX_RANGE_KEYS: i64 = 10_000;

impl Checker<'_> {
    /// The keys written after `by`, or `None`, reported.
    pub(super) fn map_key(&mut self, key: &ast::MapKey) -> Option<MapKey> {
        let range = match key {
            ast::MapKey::Enum(name) => return self.map_named(name),
            ast::MapKey::Player(_) => return Some(MapKey::Player),
            ast::MapKey::Range(e) => e,
        };
        let ast::ExprKind::Binary {
            op: ast::BinOp::Range,
            lhs,
            rhs,
        } = &range.kind
        else {
            self.error(
                Diagnostic::error(
                    "map-key-not-enum",
                    "a map is indexed by an enum, a kind, a range of numbers or `player`, and this is none of them",
                    range.span,
                )
                .with_label("not an enum, a kind, a range or `player`")
                .with_help("write `int by gem` for one entry per value of an enum, `int by card` for one per instance of a kind, `int by 1..5` for one per number, or `int by player` for one per player"),
            );
            return None;
        };
        if let (Some(lo), Some(hi)) = (consts::int(lhs), consts::int(rhs)) {
            return self
                .key_range(lo, hi, None, range)
                .then_some(MapKey::Range(lo, hi));
        }
        self.player_range(range)
    }

    /// Whether `lo..hi` may be the keys of a map: in order and not too many, reported
    /// otherwise; `players`, the count they are worked out for when they follow it.
    fn key_range(&mut self, lo: i64, hi: i64, players: Option<i64>, range: &ast::Expr) -> bool {
        let with = players.map_or(String::new(), |n| format!("with {n} players "));
        if lo > hi {
            let mut d = Diagnostic::error(
                "invalid-bounds",
                format!("{with}the keys {lo}..{hi} are backwards"),
                range.span,
            )
            .with_label("the low key comes first");
            d = match players {
                None => d
                    .with_help(format!("write `by {hi}..{lo}`"))
                    .with_fix(range.span, format!("{hi}..{lo}")),
                Some(_) => {
                    d.with_help("make the low key at most the high key for every player count")
                }
            };
            self.error(d);
            return false;
        }
        let keys = (hi as i128) - (lo as i128) + 1;
        if keys > MAX_RANGE_KEYS as i128 {
            self.error(
                Diagnostic::error(
                    "invalid-bounds",
                    format!(
                        "a map by a range has at most {MAX_RANGE_KEYS} keys, and {with}{lo}..{hi} has {keys}"
                    ),
                    range.span,
                )
                .with_label("too many keys")
                .with_help("keep a map to the keys the rules use; for an open-ended count use a `list of T`"),
            );
            return false;
        }
        true
    }

    /// `by lo..hi` whose ends follow the player count: worked out for every count the game
    /// allows (`Range` when they are the same for each), or `None`, reported.
    fn player_range(&mut self, range: &ast::Expr) -> Option<MapKey> {
        let (lo, hi) = self.players;
        let mut ends = vec![None; hi.max(0) as usize + 1];
        for n in lo..=hi {
            let Some((a, b)) = consts::range_with_players(range, n) else {
                self.error(
                    Diagnostic::error(
                        "not-constant",
                        "the keys of a map by a range must be known when the game starts",
                        range.span,
                    )
                    .with_label("not numbers, `player_count` or `by players { ... }`")
                    .with_help("write the ends as numbers or from the player count, as in `int by 1..5` or `int by 1..player_count`"),
                );
                return None;
            };
            if !self.key_range(a, b, Some(n), range) {
                return None;
            }
            ends[n as usize] = Some((a, b));
        }
        let mut each = ends.iter().flatten();
        let first = *each.next()?;
        if each.all(|e| *e == first) {
            return Some(MapKey::Range(first.0, first.1));
        }
        let id = match self.program.key_ranges.iter().position(|r| r.ends == ends) {
            Some(i) => i,
            None => {
                let written = self.program.sources.snippet(range.span);
                let written = written.split_whitespace().collect::<Vec<_>>().join(" ");
                self.program.key_ranges.push(KeyRange { ends, written });
                self.program.key_ranges.len() - 1
            }
        };
        Some(MapKey::PlayerRange(id as u32))
    }

    /// `by E`: the enum or the kind `E`, or `None`, reported.
    fn map_named(&mut self, key: &ast::Name) -> Option<MapKey> {
        match self.symbols.get(&key.text).map(|s| s.0) {
            Some(Symbol::Enum(id)) => {
                self.note_symbol_use(key);
                self.used.insert(Symbol::Enum(id));
                Some(MapKey::Enum(id))
            }
            Some(Symbol::Kind(id)) => {
                self.note_symbol_use(key);
                self.used.insert(Symbol::Kind(id));
                self.kind_key(id, key)
            }
            _ => {
                let names = self.symbol_names(|s| matches!(s, Symbol::Enum(_) | Symbol::Kind(_)));
                let mut d = Diagnostic::error(
                    "map-key-not-enum",
                    format!(
                        "a map is indexed by an enum, a kind, a range or `player`, and `{}` is none of them",
                        key.text
                    ),
                    key.span,
                )
                .with_label("not an enum or a kind");
                // `int by players` means one entry per player.
                let known = names.iter().map(String::as_str).chain(["player"]);
                d = match suggest(&key.text, known) {
                    Some(s) => d.with_suggestion(&s),
                    None => d.with_help(
                        "declare `enum gem { red, blue }` and write `int by gem`; for one entry per instance of a kind write `int by card`, for numbered keys `int by 1..5`, for one per player `int by player`",
                    ),
                };
                self.error(d);
                None
            }
        }
    }

    /// `by K` of a kind: its count must be known for every player count, as the game will
    /// count its instances when it starts.
    fn kind_key(&mut self, k: ir::KindId, key: &ast::Name) -> Option<MapKey> {
        let (lo, hi) = self.players;
        if (lo..=hi).all(|n| self.kind_len(k, n).is_some()) {
            return Some(MapKey::Kind(k));
        }
        self.error(
            Diagnostic::error(
                "not-constant",
                format!(
                    "a map by `{}` has one entry per instance, and how many `{}` has cannot be worked out before the game starts",
                    key.text, key.text
                ),
                key.span,
            )
            .with_label("a kind counted in play")
            .with_help("give the kind a count from numbers, `player_count`, `by players { ... }` or `count(table)`, as in `kind pawn[player_count + 1]`"),
        );
        None
    }

    /// How many instances kind `k` has in a game of `players` players, as the engine counts
    /// them when the game starts; `None` where its count is worked out from more than the
    /// player count and tables.
    pub(crate) fn kind_len(&self, k: ir::KindId, players: i64) -> Option<i64> {
        let kd = self
            .merged
            .decls
            .iter()
            .filter_map(|d| match d {
                ast::Decl::Kind(kd) => Some(kd),
                _ => None,
            })
            .nth(k.index())?;
        let count = match &kd.count {
            ast::KindCount::Named(names) => return Some(names.len() as i64),
            ast::KindCount::Rows { table, copies } => {
                return match self.rows_of_copies(table, copies.as_ref()) {
                    super::kind_rows::Copies::Rows(rows) => Some(rows.len() as i64),
                    super::kind_rows::Copies::TooMany(n) => Some(n),
                    _ => None,
                }
            }
            ast::KindCount::Count(e) => e,
        };
        let rows = |e: &ast::Expr| match &e.kind {
            ast::ExprKind::Call { name, args } if name.text == "count" => match args.as_slice() {
                [ast::Expr {
                    kind: ast::ExprKind::Name(t),
                    ..
                }] => match self.symbols.get(&t.text).map(|s| s.0) {
                    Some(Symbol::Table(id)) => {
                        Some(self.program.tables[id.index()].rows.len() as i64)
                    }
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        consts::int_with_players_or(count, players, &rows).filter(|n| (0..=10_000).contains(n))
    }

    /// Whether a map by `k` has as many entries for every player count the game allows.
    pub(crate) fn same_len_for_every_count(&self, k: MapKey) -> bool {
        let (lo, hi) = self.players;
        (lo..=hi).all(|n| self.map_len(k, n) == self.map_len(k, lo))
    }

    /// The ends of a range that follows the player count, as expressions the engine works out
    /// for the count played: a constant where every count has the same end.
    pub(crate) fn range_ends(&self, id: u32, span: crate::diag::Span) -> (ir::Expr, ir::Expr) {
        let (lo, hi) = self.players;
        let ends = &self.program.key_ranges[id as usize].ends;
        let int = |v: i64| super::const_expr(ir::Value::Int(v), span);
        let end = |pick: fn((i64, i64)) -> i64| {
            let each: Vec<(i64, i64)> = (lo..=hi)
                .filter_map(|n| Some((n, pick(ends.get(n as usize).copied().flatten()?))))
                .collect();
            match each.first() {
                Some(&(_, first)) if each.iter().all(|&(_, v)| v == first) => int(first),
                _ => ir::Expr::new(
                    ir::ExprKind::ByPlayers(
                        each.into_iter().map(|(n, v)| (n, n, int(v))).collect(),
                    ),
                    span,
                ),
            }
        };
        (end(|e| e.0), end(|e| e.1))
    }
}
