//! Maps indexed by an enum, a range or the players (`int by gem`, `int by 1..5`,
//! `int by player`), and maps of maps (`int by gem by player`): the type and the key of `m[k]`.
//! Their values (an initial value, a whole map set, a map in a text) are in `map_values.rs`.
//!
//! At run time a map is a list with one element per key, in the keys' order, so `m[k]` and
//! `m[k] = v` lower to the list built-ins `Index` and `Replace` at the position of `k` among
//! the keys (for an enum, its place among the enum's values; for a range `lo..hi`, `k - lo + 1`,
//! refused at run time outside the range; for a player, its seat); only the checker tells a
//! map from a list, and it never lets a statement change a map's length. A map of maps is a
//! list of lists, `m[p][g]` an `Index` of an `Index`. A map by player has as many entries as
//! the game has players, so its initial value is built when the game starts. Bounded entries
//! (`int in 0..7 by gem`) are the variable's bounds, which the engine applies to every number
//! of the list it holds, at every level.

use super::scope::{suggest, Symbol};
use super::Checker;
use crate::diag::{Diagnostic, Span};
use crate::ir::{self, Builtin, MapKey, Type};
use crate::syntax::ast;

/// The most keys a map by a range may have: its entries are kept in every game's state.
const MAX_RANGE_KEYS: i64 = 10_000;

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

    /// The keys written after `by`, or `None`, reported.
    fn map_key(&mut self, key: &ast::MapKey) -> Option<MapKey> {
        let range = match key {
            ast::MapKey::Enum(name) => return self.map_enum(name),
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
                    "a map is indexed by an enum, a range of numbers or `player`, and this is none of them",
                    range.span,
                )
                .with_label("not an enum, a range or `player`")
                .with_help("write `int by gem` for one entry per value of an enum, `int by 1..5` for one per number, or `int by player` for one per player"),
            );
            return None;
        };
        let (Some(lo), Some(hi)) = (super::consts::int(lhs), super::consts::int(rhs)) else {
            self.error(
                Diagnostic::error(
                    "not-constant",
                    "the keys of a map by a range must be known before play",
                    range.span,
                )
                .with_label("not a range of constant numbers")
                .with_help("write the ends as numbers, as in `int by 1..5`"),
            );
            return None;
        };
        if lo > hi {
            self.error(
                Diagnostic::error(
                    "invalid-bounds",
                    format!("the keys {lo}..{hi} are backwards"),
                    range.span,
                )
                .with_label("the low key comes first")
                .with_help(format!("write `by {hi}..{lo}`"))
                .with_fix(range.span, format!("{hi}..{lo}")),
            );
            return None;
        }
        if (hi as i128) - (lo as i128) + 1 > MAX_RANGE_KEYS as i128 {
            self.error(
                Diagnostic::error(
                    "invalid-bounds",
                    format!(
                        "a map by a range has at most {MAX_RANGE_KEYS} keys, and {lo}..{hi} has {}",
                        (hi as i128) - (lo as i128) + 1
                    ),
                    range.span,
                )
                .with_label("too many keys")
                .with_help("keep a map to the keys the rules use; for an open-ended count use a `list of T`"),
            );
            return None;
        }
        Some(MapKey::Range(lo, hi))
    }

    /// `by E`: the enum `E`, or `None`, reported.
    fn map_enum(&mut self, key: &ast::Name) -> Option<MapKey> {
        match self.symbols.get(&key.text).map(|s| s.0) {
            Some(Symbol::Enum(id)) => {
                self.note_symbol_use(key);
                self.used.insert(Symbol::Enum(id));
                Some(MapKey::Enum(id))
            }
            _ => {
                let enums = self.symbol_names(|s| matches!(s, Symbol::Enum(_)));
                let mut d = Diagnostic::error(
                    "map-key-not-enum",
                    format!(
                        "a map is indexed by an enum, a range or `player`, and `{}` is not an enum",
                        key.text
                    ),
                    key.span,
                )
                .with_label("not an enum");
                // `int by players` means one entry per player.
                let known = enums.iter().map(String::as_str).chain(["player"]);
                d = match suggest(&key.text, known) {
                    Some(s) => d.with_suggestion(&s),
                    None => d.with_help(
                        "declare `enum gem { red, blue }` and write `int by gem`; for numbered keys write `int by 1..5`, for one per player `int by player`",
                    ),
                };
                self.error(d);
                None
            }
        }
    }

    /// How many entries a map with keys `k` has in a game of `players` players.
    pub(crate) fn map_len(&self, k: MapKey, players: i64) -> usize {
        match k {
            MapKey::Enum(e) => self.program.enums[e.index()].values.len(),
            MapKey::Range(lo, hi) => (hi - lo + 1) as usize,
            MapKey::Player => players.max(0) as usize,
        }
    }

    /// The keys `k` as the rules write them: `` `gem` ``, `` `1..5` `` or `` `player` ``.
    pub(crate) fn map_keys_name(&self, k: MapKey) -> String {
        match k {
            MapKey::Enum(e) => format!("`{}`", self.program.enums[e.index()].name),
            MapKey::Range(lo, hi) => format!("`{lo}..{hi}`"),
            MapKey::Player => "`player`".into(),
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
        if let (MapKey::Range(lo, hi), Some(n)) = (*k, const_int(&key)) {
            if n < lo || n > hi {
                self.error(
                    Diagnostic::error(
                        "map-key-out-of-range",
                        format!("{n} is not a key of this map, whose keys are {lo}..{hi}"),
                        key_span,
                    )
                    .with_label(format!("not in {lo}..{hi}"))
                    .with_help(format!("write a key from {lo} to {hi}")),
                );
            }
        }
        self.map_position(*k, key)
    }

    /// `wrong-map-key`: a key that is not one of the map's keys `k`.
    fn wrong_key(&mut self, k: MapKey, key_type: &Type, key_span: Span) {
        let keys = self.map_keys_name(k);
        let what = match k {
            MapKey::Enum(_) => format!("a {keys}"),
            MapKey::Range(..) => format!("a number of {keys}"),
            MapKey::Player => "a player".into(),
        };
        let example = self.key_example(k);
        let help = match k {
            MapKey::Enum(_) => {
                format!("write a value of {keys} here, as in `[{example}]`; a map has no positions")
            }
            MapKey::Range(lo, hi) => format!("write a number from {lo} to {hi} here, as in `[{lo}]`"),
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
            MapKey::Player => "me".into(),
        }
    }

    /// Where `key` stands among a map's keys, from 1: `position(values of e, key)` for an
    /// enum, for a range `lo..hi` the key's offset, worked out here for a constant key and
    /// otherwise by `Builtin::Key`, which refuses a key outside the range, and for a player its
    /// seat (`Builtin::PlayerKey`, which refuses `none`).
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
            MapKey::Player => {
                ir::Expr::new(ir::ExprKind::Builtin(Builtin::PlayerKey, vec![key]), span)
            }
        }
    }

    /// Every key of a map, in order: the values of its enum, the numbers of its range, or every
    /// seat (those out of the game too: the map keeps an entry for each).
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
            MapKey::Player => ir::Expr::new(ir::ExprKind::AllPlayers, span),
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
