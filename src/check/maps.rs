//! Maps indexed by an enum, a range, the players or a kind (`int by gem`, `int by 1..5`,
//! `int by player`, `int by card`), and maps of maps (`int by gem by player`): the type and
//! the key of `m[k]`. The keys after `by` are resolved in `map_keys.rs`; a map's values (an
//! initial value, a whole map set, a map in a text) are in `map_values.rs`.
//!
//! At run time a map is a list with one element per key, in the keys' order, so `m[k]` and
//! `m[k] = v` lower to the list built-ins `Index` and `Replace` at the position of `k` among
//! the keys (for an enum, its place among the enum's values; for a range `lo..hi`, `k - lo + 1`,
//! refused at run time outside the range; for a player, its seat; for an instance, its
//! number among its kind's); only the checker tells a
//! map from a list, and it never lets a statement change a map's length. A map of maps is a
//! list of lists, `m[p][g]` an `Index` of an `Index`. A map by player has as many entries as
//! the game has players (a map by a kind, as many as the kind has instances; a map by
//! `1..player_count`, as many as the range has numbers), so where that follows the player
//! count its initial value is built for each count and taken when the game starts. Bounded entries
//! (`int in 0..7 by gem`) are the variable's bounds, which the engine applies to every number
//! of the list it holds, at every level.

use super::Checker;
use crate::diag::{Diagnostic, Span};
use crate::ir::{self, Builtin, MapKey, Type};
use crate::syntax::ast;

impl Checker<'_> {
    /// Resolves `T by E` or `T by lo..hi`, `T` resolved: `E` must be an enum, and `lo..hi` a
    /// range of constant numbers, in order. Bounds on `T` (`int in 0..7 by gem`) are the
    /// variable's, returned by `resolve_type` beside this type.
    pub(crate) fn map_type(&mut self, elem: Type, key: &ast::MapKey) -> Type {
        match self.map_key(key) {
            Some(k) => Type::Map(Box::new(elem), k),
            None => Type::Error,
        }
    }

    /// How many entries a map with keys `k` has in a game of `players` players.
    pub(crate) fn map_len(&self, k: MapKey, players: i64) -> usize {
        match k {
            MapKey::Enum(e) => self.program.enums[e.index()].values.len(),
            MapKey::Range(lo, hi) => (hi - lo + 1) as usize,
            MapKey::PlayerRange(id) => {
                let (lo, hi) = self.program.key_ranges[id as usize].ends_for(players as u8);
                (hi - lo + 1).max(0) as usize
            }
            MapKey::Player => players.max(0) as usize,
            MapKey::Kind(kind) => self.kind_len(kind, players).unwrap_or(0) as usize,
        }
    }

    /// The keys `k` as the rules write them: `` `gem` ``, `` `1..5` ``, `` `player` `` or
    /// `` `card` ``.
    pub(crate) fn map_keys_name(&self, k: MapKey) -> String {
        match k {
            MapKey::Enum(e) => format!("`{}`", self.program.enums[e.index()].name),
            MapKey::Range(lo, hi) => format!("`{lo}..{hi}`"),
            MapKey::PlayerRange(id) => {
                format!("`{}`", self.program.key_ranges[id as usize].written)
            }
            MapKey::Player => "`player`".into(),
            MapKey::Kind(kind) => format!("`{}`", self.program.kinds[kind.index()].name),
        }
    }

    /// The position that `key` reads in a value of type `container`: for a map, the key's
    /// place among its keys (a key of another type refused with `wrong-map-key`, or with
    /// `map-key-order` where it is a key of the map inside, a constant key outside a range with
    /// `map-key-out-of-range`); for a list, the key itself, a number. The element read is
    /// unknown (`Type::Error`) after keys given in the wrong order, so that the next key is
    /// not refused again for the same mistake.
    pub(crate) fn index_key(
        &mut self,
        container: &Type,
        key: ir::Expr,
        key_type: &Type,
        key_span: Span,
        elem: &mut Type,
    ) -> ir::Expr {
        let Type::Map(inner, k) = container else {
            // Below a key already refused, nothing more is known to be wrong.
            if *container != Type::Error {
                self.expect_type(&Type::Int, key_type, key_span, "a position in a list");
            }
            return key;
        };
        let want = k.key_type();
        if !want.accepts(key_type) || *key_type == Type::Nothing {
            match &**inner {
                Type::Map(_, i) if i.key_type().accepts(key_type) && *key_type != Type::Nothing => {
                    self.keys_swapped(*k, *i, key_type, key_span);
                    *elem = Type::Error;
                }
                _ => self.wrong_key(*k, key_type, key_span),
            }
        }
        if let Some(n) = const_int(&key) {
            self.constant_key(*k, n, key_span);
        }
        self.map_position(*k, key)
    }

    /// `map-key-out-of-range`: a key written as a number outside a map's range, for every
    /// player count the game allows where the range follows the count (a key outside it for
    /// some counts only may be read under a condition on the count: it fails in play there).
    fn constant_key(&mut self, k: MapKey, n: i64, key_span: Span) {
        let ranges: Vec<(i64, i64)> = match k {
            MapKey::Range(lo, hi) => vec![(lo, hi)],
            MapKey::PlayerRange(id) => {
                let (lo, hi) = self.players;
                let r = &self.program.key_ranges[id as usize];
                (lo..=hi).map(|c| r.ends_for(c as u8)).collect()
            }
            _ => return,
        };
        if ranges.iter().any(|&(lo, hi)| lo <= n && n <= hi) {
            return;
        }
        let keys = match k {
            MapKey::Range(lo, hi) => format!("{lo}..{hi}"),
            _ => {
                let (lo, hi) = self.players;
                format!(
                    "{} for every player count from {lo} to {hi}",
                    self.map_keys_name(k).trim_matches('`')
                )
            }
        };
        let low = ranges.iter().map(|r| r.0).min().unwrap_or(0);
        let high = ranges.iter().map(|r| r.1).max().unwrap_or(0);
        self.error(
            Diagnostic::error(
                "map-key-out-of-range",
                format!("{n} is not a key of this map, whose keys are {keys}"),
                key_span,
            )
            .with_label(format!(
                "not in {}",
                keys.split(" for").next().unwrap_or("")
            ))
            .with_help(format!("write a key from {low} to {high}")),
        );
    }

    /// `wrong-map-key`: a key that is not one of the map's keys `k`.
    fn wrong_key(&mut self, k: MapKey, key_type: &Type, key_span: Span) {
        let keys = self.map_keys_name(k);
        let what = match k {
            MapKey::Enum(_) => format!("a {keys}"),
            MapKey::Range(..) | MapKey::PlayerRange(_) => format!("a number of {keys}"),
            MapKey::Player => "a player".into(),
            MapKey::Kind(_) => format!("an instance of {keys}"),
        };
        let example = self.key_example(k);
        let help = match k {
            MapKey::Enum(_) => {
                format!("write a value of {keys} here, as in `[{example}]`; a map has no positions")
            }
            MapKey::Range(lo, hi) => format!("write a number from {lo} to {hi} here, as in `[{lo}]`"),
            MapKey::PlayerRange(_) => format!("write a number of {keys} here, as in `[{example}]`"),
            MapKey::Kind(_) => format!(
                "write an instance of {keys} here, as in `[{example}]` for each `{example} in {}`; a map has no positions",
                keys.trim_matches('`')
            ),
            MapKey::Player => {
                "write a player here, as in `[me]` or `[p]` for each `p in players`; a map has no positions".into()
            }
        };
        self.error(
            Diagnostic::error(
                "wrong-map-key",
                format!(
                    "this map is indexed by {what}, but this is {}",
                    self.type_name(key_type)
                ),
                key_span,
            )
            .with_label(format!("this is {}", self.type_name(key_type)))
            .with_help(help),
        );
    }

    /// `map-key-order`: of a map of maps, a key of the map inside given first. The key written
    /// last after `by` comes first: `int by gem by player` is read `m[p][g]`.
    fn keys_swapped(&mut self, outer: MapKey, inner: MapKey, key_type: &Type, key_span: Span) {
        let (o, i) = (self.map_keys_name(outer), self.map_keys_name(inner));
        self.error(
            Diagnostic::error(
                "map-key-order",
                format!(
                    "this map's entries are maps: it is indexed by {o} first, then by {i}, but this is {}",
                    self.type_name(key_type)
                ),
                key_span,
            )
            .with_label(format!("a key of the inner map, by {i}"))
            .with_help(format!(
                "give the keys in the other order, as in `[{}][{}]`: of a map `... by {} by {}`, the key written last ({o}) comes first",
                self.key_example(outer),
                self.key_example(inner),
                i.trim_matches('`'),
                o.trim_matches('`'),
            )),
        );
    }

    /// A key of `k` as rules write one: the enum's first value, the range's low end, `me`.
    fn key_example(&self, k: MapKey) -> String {
        match k {
            MapKey::Enum(e) => self.program.enums[e.index()]
                .values
                .first()
                .cloned()
                .unwrap_or_default(),
            MapKey::Range(lo, _) => lo.to_string(),
            MapKey::PlayerRange(id) => {
                let r = &self.program.key_ranges[id as usize];
                r.ends_for(self.players.0 as u8).0.to_string()
            }
            MapKey::Player => "me".into(),
            // A numbered instance has no name in the rules: a local named after its kind.
            MapKey::Kind(kind) => {
                let def = &self.program.kinds[kind.index()];
                match def.names.first() {
                    Some(name) => name.clone(),
                    None => def.name.chars().take(1).collect(),
                }
            }
        }
    }

    /// Where `key` stands among a map's keys, from 1: `position(values of e, key)` for an
    /// enum, for a range `lo..hi` the key's offset, worked out here for a constant key and
    /// otherwise by `Builtin::Key`, which refuses a key outside the range (its ends those of
    /// the count played, for a range that follows it), for a player its seat
    /// (`Builtin::PlayerKey`, which refuses `none`), and for an instance its number
    /// (`Builtin::InstanceKey`, which refuses `none`).
    pub(crate) fn map_position(&self, k: MapKey, key: ir::Expr) -> ir::Expr {
        let span = key.span;
        let int = |n: i64| super::const_expr(ir::Value::Int(n), span);
        match k {
            MapKey::Enum(e) => {
                let values = ir::Expr::new(ir::ExprKind::EnumValues(e), span);
                ir::Expr::new(
                    ir::ExprKind::Builtin(Builtin::Position, vec![values, key]),
                    span,
                )
            }
            MapKey::Range(lo, hi) => match const_int(&key) {
                Some(n) if (lo..=hi).contains(&n) => int(n - lo + 1),
                _ => ir::Expr::new(
                    ir::ExprKind::Builtin(Builtin::Key, vec![key, int(lo), int(hi)]),
                    span,
                ),
            },
            MapKey::PlayerRange(id) => {
                let (lo, hi) = self.range_ends(id, span);
                match (const_int(&lo), const_int(&key)) {
                    // The same low end for every count, and a key in the range for each.
                    (Some(l), Some(n)) if self.key_in_every_count(id, n) => int(n - l + 1),
                    _ => {
                        ir::Expr::new(ir::ExprKind::Builtin(Builtin::Key, vec![key, lo, hi]), span)
                    }
                }
            }
            MapKey::Player => {
                ir::Expr::new(ir::ExprKind::Builtin(Builtin::PlayerKey, vec![key]), span)
            }
            MapKey::Kind(_) => {
                ir::Expr::new(ir::ExprKind::Builtin(Builtin::InstanceKey, vec![key]), span)
            }
        }
    }

    /// Whether `n` is a key of the range `id` for every player count the game allows.
    fn key_in_every_count(&self, id: u32, n: i64) -> bool {
        let (lo, hi) = self.players;
        let r = &self.program.key_ranges[id as usize];
        (lo..=hi).all(|c| {
            let (a, b) = r.ends_for(c as u8);
            a <= n && n <= b
        })
    }

    /// Every key of a map, in order: the values of its enum, the numbers of its range, every
    /// seat (those out of the game too: the map keeps an entry for each), or every instance
    /// of its kind.
    pub(crate) fn map_keys(&self, k: MapKey, span: Span) -> ir::Expr {
        match k {
            MapKey::Enum(e) => ir::Expr::new(ir::ExprKind::EnumValues(e), span),
            MapKey::Range(lo, hi) => ir::Expr::new(
                ir::ExprKind::Binary(
                    ast::BinOp::Range,
                    Box::new(super::const_expr(ir::Value::Int(lo), span)),
                    Box::new(super::const_expr(ir::Value::Int(hi), span)),
                ),
                span,
            ),
            MapKey::PlayerRange(id) => {
                let (lo, hi) = self.range_ends(id, span);
                ir::Expr::new(
                    ir::ExprKind::Binary(ast::BinOp::Range, Box::new(lo), Box::new(hi)),
                    span,
                )
            }
            MapKey::Player => ir::Expr::new(ir::ExprKind::AllPlayers, span),
            MapKey::Kind(kind) => ir::Expr::new(ir::ExprKind::Instances(kind), span),
        }
    }
}

/// The number a checked expression is when it is a constant: `3`, or `-3`.
pub(crate) fn const_int(e: &ir::Expr) -> Option<i64> {
    match &e.kind {
        ir::ExprKind::Const(ir::Value::Int(n)) => Some(*n),
        ir::ExprKind::Unary(ast::UnOp::Neg, x) => const_int(x)?.checked_neg(),
        _ => None,
    }
}
