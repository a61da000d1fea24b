//! Maps indexed by an enum or a range (`int by gem`, `int by 1..5`): the type, the key of
//! `m[k]` and the initial value.
//!
//! At run time a map is a list with one element per key, in the keys' order, so `m[k]` and
//! `m[k] = v` lower to the list built-ins `Index` and `Replace` at the position of `k` among
//! the keys (for an enum, its place among the enum's values; for a range `lo..hi`, `k - lo + 1`,
//! refused at run time outside the range); only the checker tells a map from a list, and it
//! never lets a statement change a map's length. Bounded entries (`int in 0..7 by gem`) are the
//! variable's bounds, which the engine applies to every number of the list it holds.

use super::scope::{suggest, Scope, Symbol};
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
                    "a map is indexed by an enum or a range of numbers, and this is neither",
                    range.span,
                )
                .with_label("not an enum or a range")
                .with_help("write `int by gem` for one entry per value of an enum, or `int by 1..5` for one per number"),
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
                        "a map is indexed by an enum or a range, and `{}` is not an enum",
                        key.text
                    ),
                    key.span,
                )
                .with_label("not an enum");
                d = match suggest(&key.text, enums.iter().map(String::as_str)) {
                    Some(s) => d.with_suggestion(&s),
                    None => d.with_help(
                        "declare `enum gem { red, blue }` and write `int by gem`; for numbered keys write `int by 1..5`",
                    ),
                };
                self.error(d);
                None
            }
        }
    }

    /// How many entries a map with keys `k` has.
    pub(crate) fn map_len(&self, k: MapKey) -> usize {
        match k {
            MapKey::Enum(e) => self.program.enums[e.index()].values.len(),
            MapKey::Range(lo, hi) => (hi - lo + 1) as usize,
        }
    }

    /// The keys `k` as the rules write them: `` `gem` `` or `` `1..5` ``.
    fn map_keys_name(&self, k: MapKey) -> String {
        match k {
            MapKey::Enum(e) => format!("`{}`", self.program.enums[e.index()].name),
            MapKey::Range(lo, hi) => format!("`{lo}..{hi}`"),
        }
    }

    /// The position that `key` reads in a value of type `container`: for a map, the key's
    /// place among its keys (a key of another type refused with `wrong-map-key`, a constant
    /// key outside a range with `map-key-out-of-range`); for a list, the key itself, a number.
    pub(crate) fn index_key(
        &mut self,
        container: &Type,
        key: ir::Expr,
        key_type: &Type,
        key_span: Span,
    ) -> ir::Expr {
        let Type::Map(_, k) = container else {
            self.expect_type(&Type::Int, key_type, key_span, "a position in a list");
            return key;
        };
        let want = k.key_type();
        if !want.accepts(key_type) || *key_type == Type::Nothing {
            let example = match *k {
                MapKey::Enum(e) => self.program.enums[e.index()]
                    .values
                    .first()
                    .cloned()
                    .unwrap_or_default(),
                MapKey::Range(lo, _) => lo.to_string(),
            };
            let keys = self.map_keys_name(*k);
            let what = match k {
                MapKey::Enum(_) => format!("a {keys}"),
                MapKey::Range(..) => format!("a number of {keys}"),
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
                .with_help(match k {
                    MapKey::Enum(_) => format!(
                        "write a value of {keys} here, as in `[{example}]`; a map has no positions"
                    ),
                    MapKey::Range(_, hi) => {
                        format!("write a number from {example} to {hi} here, as in `[{example}]`")
                    }
                }),
            );
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

    /// Where `key` stands among a map's keys, from 1: `position(values of e, key)` for an
    /// enum, and for a range `lo..hi` the key's offset, worked out here for a constant key and
    /// otherwise by `Builtin::Key`, which refuses a key outside the range.
    fn map_position(&self, k: MapKey, key: ir::Expr) -> ir::Expr {
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
        }
    }

    /// Every key of a map, in order: the values of its enum, or the numbers of its range.
    fn map_keys(&self, k: MapKey, span: Span) -> ir::Expr {
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
        }
    }

    /// A value for a place of type `want`, checked: for a map, another map of its type, one
    /// value for every entry or a list written out with one value per entry (`p.gems = 0`).
    pub(crate) fn value_for(
        &mut self,
        want: &Type,
        v: ir::Expr,
        vt: &Type,
        span: Span,
        what: &str,
    ) -> ir::Expr {
        if !matches!(want, Type::Map(..)) || want.accepts(vt) {
            self.expect_type(want, vt, span, what);
            return v;
        }
        self.map_initial(want, v, vt, span)
            .unwrap_or_else(|| super::const_expr(ir::Value::None, span))
    }

    /// A map's initial value: one value of the element type fills every entry; a list written
    /// out with one value per key gives them in the keys' order. `None`, reported, otherwise.
    pub(crate) fn map_initial(
        &mut self,
        want: &Type,
        init: ir::Expr,
        ty: &Type,
        span: Span,
    ) -> Option<ir::Expr> {
        let Type::Map(elem, k) = want else {
            return None;
        };
        let n = self.map_len(*k);
        if elem.accepts(ty) {
            let entries = vec![init; n];
            return Some(ir::Expr::new(ir::ExprKind::List(entries), span));
        }
        if let (Type::List(got), ir::ExprKind::List(items)) = (ty, &init.kind) {
            if elem.accepts(got) && items.len() == n {
                return Some(init);
            }
            if elem.accepts(got) {
                let keys = self.map_keys_name(*k);
                let (what, each) = match k {
                    MapKey::Enum(_) => ("values", format!("each {keys}, in its order")),
                    MapKey::Range(..) => ("keys", format!("each key of {keys}, in order")),
                };
                self.error(
                    Diagnostic::error(
                        "map-size",
                        format!("{keys} has {n} {what}, but this list has {}", items.len()),
                        span,
                    )
                    .with_label(format!("{} values", items.len()))
                    .with_help(format!("give one value for {each}, or one value for all")),
                );
                return None;
            }
        }
        self.expect_type(elem, ty, span, "the value of every entry");
        None
    }

    /// `{m}` in a text, for a map `m`: each entry as its key and value, written as the `{each}`
    /// part `{each k in E "{k} {m[k]}" sep ", "}` would be: `red 2, blue 0` by an enum, and
    /// `1: 2, 2: 0` by a range, where a number beside a number would not tell key from value.
    pub(crate) fn map_text(&mut self, m: ir::Expr, k: MapKey, scope: &mut Scope) -> ir::TextPart {
        let span = m.span;
        scope.push();
        let slot = scope.shadow(" entry", k.key_type(), span);
        scope.pop();
        let key = || ir::Expr::new(ir::ExprKind::Local(slot), span);
        let value = ir::Expr::new(
            ir::ExprKind::Builtin(Builtin::Index, vec![m, self.map_position(k, key())]),
            span,
        );
        let between = match k {
            MapKey::Enum(_) => " ",
            MapKey::Range(..) => ": ",
        };
        let body = ir::Text {
            parts: vec![
                ir::TextPart::Expr(key()),
                ir::TextPart::Lit(between.into()),
                ir::TextPart::Expr(value),
            ],
        };
        ir::TextPart::Each {
            slot,
            source: self.map_keys(k, span),
            filter: None,
            body,
            sep: ir::Text {
                parts: vec![ir::TextPart::Lit(", ".into())],
            },
        }
    }
}

/// The number a checked expression is when it is a constant: `3`, or `-3`.
fn const_int(e: &ir::Expr) -> Option<i64> {
    match &e.kind {
        ir::ExprKind::Const(ir::Value::Int(n)) => Some(*n),
        ir::ExprKind::Unary(ast::UnOp::Neg, x) => const_int(x)?.checked_neg(),
        _ => None,
    }
}
