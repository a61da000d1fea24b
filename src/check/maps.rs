//! Maps indexed by an enum (`int by gem`): the type, the key of `m[k]` and the initial value.
//!
//! At run time a map is a list with one element per value of its enum, in the enum's order, so
//! `m[k]` and `m[k] = v` lower to the list built-ins `Index` and `Replace` at the position of `k`
//! among the enum's values; only the checker tells a map from a list, and it never lets a
//! statement change a map's length.

use super::scope::{suggest, Scope, Symbol};
use super::Checker;
use crate::diag::{Diagnostic, Span};
use crate::ir::{self, Builtin, EnumId, Type};
use crate::syntax::ast;

impl Checker<'_> {
    /// Resolves `T by E`: `E` must be an enum, and `T` not a bounded int, whose clamping works
    /// on a whole variable, not on each element.
    pub(crate) fn map_type(&mut self, elem: &ast::TypeExpr, key: &ast::Name) -> Type {
        let (inner, bounds) = self.resolve_type(elem);
        if bounds.is_some()
            || matches!(
                elem,
                ast::TypeExpr::Int {
                    bounds: Some(_),
                    ..
                }
            )
        {
            self.error(
                Diagnostic::error(
                    "bounded-map",
                    "the values of a map cannot be bounded: a bound clamps a whole variable, not each entry",
                    elem.span(),
                )
                .with_label("a bounded int in a map")
                .with_help(format!(
                    "write `int by {}` and keep each entry in range with the rules, or an invariant",
                    key.text
                )),
            );
        }
        match self.symbols.get(&key.text).map(|s| s.0) {
            Some(Symbol::Enum(id)) => {
                self.note_symbol_use(key);
                self.used.insert(Symbol::Enum(id));
                Type::Map(Box::new(inner), id)
            }
            _ => {
                let enums = self.symbol_names(|s| matches!(s, Symbol::Enum(_)));
                let mut d = Diagnostic::error(
                    "map-key-not-enum",
                    format!("a map is indexed by an enum, and `{}` is not one", key.text),
                    key.span,
                )
                .with_label("not an enum");
                d = match suggest(&key.text, enums.iter().map(String::as_str)) {
                    Some(s) => d.with_suggestion(&s),
                    None => d.with_help(
                        "declare `enum gem { red, blue }` and write `int by gem`; for numbered slots use `list of T`",
                    ),
                };
                self.error(d);
                Type::Error
            }
        }
    }

    /// The position that `key` reads in a value of type `container`: for a map, the key's
    /// place among its enum's values (a key of another type refused with `wrong-map-key`); for
    /// a list, the key itself, a number.
    pub(crate) fn index_key(
        &mut self,
        container: &Type,
        key: ir::Expr,
        key_type: &Type,
        key_span: Span,
    ) -> ir::Expr {
        let Type::Map(_, e) = container else {
            self.expect_type(&Type::Int, key_type, key_span, "a position in a list");
            return key;
        };
        let want = Type::Enum(*e);
        if !want.accepts(key_type) || *key_type == Type::Nothing {
            let enum_name = self.program.enums[e.index()].name.clone();
            let first = self.program.enums[e.index()]
                .values
                .first()
                .cloned()
                .unwrap_or_default();
            self.error(
                Diagnostic::error(
                    "wrong-map-key",
                    format!(
                        "this map is indexed by a `{enum_name}`, but this is {}",
                        self.type_name(key_type)
                    ),
                    key_span,
                )
                .with_label(format!("this is {}", self.type_name(key_type)))
                .with_help(format!(
                    "write a value of `{enum_name}` here, as in `[{first}]`; a map has no positions"
                )),
            );
        }
        self.map_position(*e, key)
    }

    /// `position(values of e, key)`: where `key` stands in its map, from 1.
    fn map_position(&self, e: EnumId, key: ir::Expr) -> ir::Expr {
        let span = key.span;
        let values = ir::Expr::new(ir::ExprKind::EnumValues(e), span);
        ir::Expr::new(
            ir::ExprKind::Builtin(Builtin::Position, vec![values, key]),
            span,
        )
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
    /// out with one value per enum value gives them in the enum's order. `None`, reported,
    /// otherwise.
    pub(crate) fn map_initial(
        &mut self,
        want: &Type,
        init: ir::Expr,
        ty: &Type,
        span: Span,
    ) -> Option<ir::Expr> {
        let Type::Map(elem, e) = want else {
            return None;
        };
        let n = self.program.enums[e.index()].values.len();
        let enum_name = self.program.enums[e.index()].name.clone();
        if elem.accepts(ty) {
            let entries = vec![init; n];
            return Some(ir::Expr::new(ir::ExprKind::List(entries), span));
        }
        if let (Type::List(got), ir::ExprKind::List(items)) = (ty, &init.kind) {
            if elem.accepts(got) && items.len() == n {
                return Some(init);
            }
            if elem.accepts(got) {
                self.error(
                    Diagnostic::error(
                        "map-size",
                        format!(
                            "`{enum_name}` has {n} values, but this list has {}",
                            items.len()
                        ),
                        span,
                    )
                    .with_label(format!("{} values", items.len()))
                    .with_help(format!(
                        "give one value for each `{enum_name}`, in its order, or one value for all"
                    )),
                );
                return None;
            }
        }
        self.expect_type(elem, ty, span, "the value of every entry");
        None
    }

    /// `{m}` in a text, for a map `m`: each entry as its key and value, `red 2, blue 0`,
    /// written as the `{each}` part `{each k in E "{k} {m[k]}" sep ", "}` would be.
    pub(crate) fn map_text(&mut self, m: ir::Expr, e: EnumId, scope: &mut Scope) -> ir::TextPart {
        let span = m.span;
        scope.push();
        let slot = scope.shadow(" entry", Type::Enum(e), span);
        scope.pop();
        let key = || ir::Expr::new(ir::ExprKind::Local(slot), span);
        let value = ir::Expr::new(
            ir::ExprKind::Builtin(Builtin::Index, vec![m, self.map_position(e, key())]),
            span,
        );
        let body = ir::Text {
            parts: vec![
                ir::TextPart::Expr(key()),
                ir::TextPart::Lit(" ".into()),
                ir::TextPart::Expr(value),
            ],
        };
        ir::TextPart::Each {
            slot,
            source: ir::Expr::new(ir::ExprKind::EnumValues(e), span),
            filter: None,
            body,
            sep: ir::Text {
                parts: vec![ir::TextPart::Lit(", ".into())],
            },
        }
    }
}
