//! Tables: rows of constant values under typed columns, declared in one place and read by
//! position (`nth(chart, r).event`, `count(chart)`). Every value is worked out here, when the
//! rules are checked, so that reading a cell in play is an index into the program.

use super::scope::{suggest, Scope, Symbol};
use super::Checker;
use crate::diag::{Diagnostic, Span};
use crate::ir::{self, ExprKind as K, List, Type, Value};
use crate::syntax::ast;
use std::collections::BTreeMap;

impl Checker<'_> {
    /// Pass 1: the table's id, name and row count (`count(t)` is known from here on).
    pub(super) fn declare_table(&mut self, t: &ast::TableDecl) {
        let id = ir::TableId(self.program.tables.len() as u32);
        self.define(&t.name, Symbol::Table(id));
        self.program.tables.push(ir::TableDef {
            name: t.name.text.clone(),
            columns: Vec::new(),
            rows: vec![Vec::new(); t.rows.len()],
        });
    }

    /// Pass 2: the columns' names and types.
    pub(super) fn table_columns(&mut self, id: ir::TableId, t: &ast::TableDecl) {
        self.no_set_params(&t.columns);
        let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
        let mut columns = Vec::new();
        for c in &t.columns {
            if let Some(first) = seen.insert(&c.name.text, c.name.span) {
                self.error(
                    Diagnostic::error(
                        "duplicate-definition",
                        format!("column `{}` is named twice", c.name.text),
                        c.name.span,
                    )
                    .with_label("named again here")
                    .with_secondary(first, "first named here")
                    .with_help("give each column its own name"),
                );
            }
            if let Some(span) = c.secret {
                // Columns share the parameters' grammar, where `secret` marks a move's argument.
                self.error(
                    Diagnostic::error(
                        "secret-parameter",
                        "a table's column cannot be secret",
                        span,
                    )
                    .with_label("every player may read a table")
                    .with_help(
                        "remove `secret`: a table is part of the rules, which every player may \
                         read; keep a secret in a variable that is `hidden` or `visible when`",
                    )
                    .with_fix(span, ""),
                );
            }
            let (ty, _) = self.resolve_type(&c.ty);
            columns.push((c.name.text.clone(), ty));
        }
        if columns.is_empty() {
            self.error(
                Diagnostic::error(
                    "wrong-row-length",
                    format!("table `{}` has no columns", t.name.text),
                    t.name.span,
                )
                .with_label("nothing to read in its rows")
                .with_help("name the columns: `table chart(roll: int, event: chance) { ... }`"),
            );
        }
        self.program.tables[id.index()].columns = columns;
    }

    /// Pass 3: every row's values, each a constant of its column's type.
    pub(super) fn table_rows(&mut self, id: ir::TableId, t: &ast::TableDecl) {
        self.current = Some(Symbol::Table(id));
        let columns = self.program.tables[id.index()].columns.clone();
        for (r, row) in t.rows.iter().enumerate() {
            if row.cells.len() != columns.len() && !columns.is_empty() {
                let names: Vec<&str> = columns.iter().map(|(n, _)| n.as_str()).collect();
                self.error(
                    Diagnostic::error(
                        "wrong-row-length",
                        format!(
                            "row {} of table `{}` has {} value{} for {} columns",
                            r + 1,
                            t.name.text,
                            row.cells.len(),
                            if row.cells.len() == 1 { "" } else { "s" },
                            columns.len()
                        ),
                        row.span,
                    )
                    .with_label(format!("one value per column: {}", names.join(", ")))
                    .with_help("give every row one value for each column, in order"),
                );
            }
            let mut values = Vec::with_capacity(columns.len());
            for (cell, (name, ty)) in row.cells.iter().zip(&columns) {
                let mut scope = Scope::new(false);
                let (e, got) = self.expr(cell, &mut scope);
                // A map's cell is a list written out, one value per key (or one for all).
                let e = self.value_for(ty, e, &got, cell.span, &format!("column `{name}`"));
                values.push(constant(&e).unwrap_or_else(|| {
                    self.error(
                        Diagnostic::error(
                            "not-constant",
                            format!("a value of table `{}` must be a constant", t.name.text),
                            cell.span,
                        )
                        .with_label("worked out while playing")
                        .with_help(
                            "write numbers, yes/no, none, enum values, named instances, or lists of them",
                        ),
                    );
                    Value::None
                }));
            }
            self.program.tables[id.index()].rows[r] = values;
        }
        self.current = None;
    }

    /// `nth(t, row).column` of a table `t`, if `base` names one; `None` if it is no table.
    pub(super) fn table_cell(
        &mut self,
        base: &ast::Expr,
        field: &ast::Name,
        span: Span,
        scope: &mut Scope,
    ) -> Option<(ir::Expr, Type)> {
        let ast::ExprKind::Call { name, args } = &base.kind else {
            return None;
        };
        let [ast::Expr {
            kind: ast::ExprKind::Name(t),
            ..
        }, row] = args.as_slice()
        else {
            return None;
        };
        let Some((Symbol::Table(id), decl)) = self.symbols.get(&t.text).copied() else {
            return None;
        };
        if name.text != ir::Builtin::Nth.name() || scope.lookup(&t.text).is_some() {
            return None;
        }
        self.use_symbol(Symbol::Table(id));
        self.note_symbol_use(t);
        let (row, row_ty) = self.expr(row, scope);
        self.expect_type(&Type::Int, &row_ty, row.span, "a row number");
        let table = &self.program.tables[id.index()];
        let Some(column) = table.columns.iter().position(|(n, _)| *n == field.text) else {
            let names: Vec<String> = table.columns.iter().map(|(n, _)| n.clone()).collect();
            let mut d = Diagnostic::error(
                "unknown-column",
                format!("table `{}` has no column `{}`", t.text, field.text),
                field.span,
            )
            .with_label("no such column")
            .with_secondary(decl, "the table is declared here");
            d = match suggest(&field.text, names.iter().map(String::as_str)) {
                Some(s) => d.with_suggestion(&s),
                None => d.with_help(format!("its columns are {}", names.join(", "))),
            };
            self.error(d);
            return Some((super::expr::error_expr(span).0, Type::Error));
        };
        let ty = table.columns[column].1.clone();
        Some((
            ir::Expr::new(
                K::TableCell {
                    table: id,
                    column: column as u32,
                    row: Box::new(row),
                },
                span,
            ),
            ty,
        ))
    }

    /// `count(t)` of a table `t`: its number of rows, a constant.
    pub(super) fn table_count(
        &mut self,
        args: &[ast::Expr],
        span: Span,
        scope: &Scope,
    ) -> Option<ir::Expr> {
        let [ast::Expr {
            kind: ast::ExprKind::Name(t),
            ..
        }] = args
        else {
            return None;
        };
        if scope.lookup(&t.text).is_some() {
            return None;
        }
        let Some((Symbol::Table(id), _)) = self.symbols.get(&t.text).copied() else {
            return None;
        };
        self.use_symbol(Symbol::Table(id));
        self.note_symbol_use(t);
        let rows = self.program.tables[id.index()].rows.len();
        Some(ir::Expr::new(K::Const(Value::Int(rows as i64)), span))
    }

    /// A table named where a value is expected.
    pub(super) fn table_as_value(&mut self, n: &ast::Name) {
        self.error(
            Diagnostic::error(
                "table-as-value",
                format!("`{}` is a table, not a value", n.text),
                n.span,
            )
            .with_label("a table is read one value at a time")
            .with_help(format!(
                "read a row's value with `nth({0}, i).column`, or the number of rows with `count({0})`",
                n.text
            )),
        );
    }
}

/// The value of a constant expression: a literal, a negative number, an enum value, a named
/// instance, `none`, or a list of these.
fn constant(e: &ir::Expr) -> Option<Value> {
    match &e.kind {
        K::Const(v) => Some(v.clone()),
        K::Unary(ir::UnOp::Neg, x) => match constant(x)? {
            Value::Int(n) => n.checked_neg().map(Value::Int),
            _ => None,
        },
        K::List(items) => Some(Value::List(List::from_vec(
            items.iter().map(constant).collect::<Option<Vec<_>>>()?,
        ))),
        _ => None,
    }
}
