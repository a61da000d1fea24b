//! Kinds made from a table (`kind card from dishes by copies`): one instance per row, or as
//! many per row as a column of whole numbers says, each knowing its row (`row`) when its fields
//! are worked out. The table is constant, so the instances' rows are worked out here.

use super::scope::{suggest, Symbol};
use super::{const_expr, consts, Checker};
use crate::diag::Diagnostic;
use crate::ir::{Value, MAX_INSTANCES};
use crate::syntax::ast;

/// What a kind made from a table comes to.
pub(crate) enum Copies {
    /// The row (from 1) of each instance, in order.
    Rows(Vec<u32>),
    /// More instances than a kind may have (the engine refuses them when a game starts).
    TooMany(i64),
    /// A mistake to report.
    Mistake(Box<Diagnostic>),
    /// A mistake reported where the table is checked (a cell that is not a constant).
    Reported,
}

impl Checker<'_> {
    /// Pass 3: kind `k`'s count and its instances' rows, from `table` and its column `copies`.
    pub(super) fn kind_rows(&mut self, k: usize, table: &ast::Name, copies: Option<&ast::Name>) {
        if let Some((Symbol::Table(id), _)) = self.symbols.get(&table.text).copied() {
            self.use_symbol(Symbol::Table(id));
            self.note_symbol_use(table);
        }
        let total = match self.rows_of_copies(table, copies) {
            Copies::Rows(rows) => {
                let n = rows.len() as i64;
                self.program.kinds[k].rows.1 = rows;
                n
            }
            Copies::TooMany(n) => n,
            Copies::Mistake(d) => {
                self.error(*d);
                0
            }
            Copies::Reported => 0,
        };
        self.program.kinds[k].count = const_expr(Value::Int(total), table.span);
    }

    /// The row (from 1) of each instance of a kind made from `table`, one per row or as many
    /// as `copies` says.
    pub(crate) fn rows_of_copies(&self, table: &ast::Name, copies: Option<&ast::Name>) -> Copies {
        let fail = |d: Diagnostic| Copies::Mistake(Box::new(d));
        let decl = self.merged.decls.iter().find_map(|d| match d {
            ast::Decl::Table(t) if t.name.text == table.text => Some(t),
            _ => None,
        });
        let Some(decl) = decl else {
            let tables: Vec<String> = self
                .merged
                .decls
                .iter()
                .filter_map(|d| match d {
                    ast::Decl::Table(t) => Some(t.name.text.clone()),
                    _ => None,
                })
                .collect();
            let mut d = Diagnostic::error(
                "unknown-name",
                format!("no table named `{}`", table.text),
                table.span,
            )
            .with_label("not a table");
            d = match suggest(&table.text, tables.iter().map(String::as_str)) {
                Some(s) => d.with_suggestion(&s),
                None => d.with_help(
                    "declare the table, `table dishes(dish: dish, copies: int) { ... }`, and make the kind from it",
                ),
            };
            return fail(d);
        };
        let Some(copies) = copies else {
            return Copies::Rows((1..=decl.rows.len() as u32).collect());
        };
        let Some(column) = decl.columns.iter().position(|c| c.name.text == copies.text) else {
            let names: Vec<&str> = decl.columns.iter().map(|c| c.name.text.as_str()).collect();
            let mut d = Diagnostic::error(
                "unknown-column",
                format!("table `{}` has no column `{}`", table.text, copies.text),
                copies.span,
            )
            .with_label("no such column")
            .with_secondary(decl.name.span, "the table is declared here");
            d = match suggest(&copies.text, names.iter().copied()) {
                Some(s) => d.with_suggestion(&s),
                None => d.with_help(format!("its columns are {}", names.join(", "))),
            };
            return fail(d);
        };
        if !matches!(&decl.columns[column].ty, ast::TypeExpr::Int { .. }) {
            return fail(
                Diagnostic::error(
                    "type-mismatch",
                    format!(
                        "the column `{}` does not hold whole numbers, so it cannot say how many copies",
                        copies.text
                    ),
                    copies.span,
                )
                .with_label("not a column of `int`")
                .with_help("name a column declared `int`, or leave out `by` for one instance a row"),
            );
        }
        let mut rows = Vec::new();
        let mut total: i64 = 0;
        for (r, row) in decl.rows.iter().enumerate() {
            // A cell that is not a constant is reported where the table is checked.
            let Some(n) = row.cells.get(column).and_then(consts::int) else {
                return Copies::Reported;
            };
            if n < 0 {
                return fail(
                    Diagnostic::error(
                        "negative-copies",
                        format!("row {} of `{}` asks for {n} copies", r + 1, table.text),
                        row.span,
                    )
                    .with_label("fewer than none")
                    .with_secondary(copies.span, "the copies are counted by this column")
                    .with_help("write 0 copies or more in that column"),
                );
            }
            total = total.saturating_add(n);
            if total <= MAX_INSTANCES {
                rows.extend(std::iter::repeat_n(r as u32 + 1, n as usize));
            }
        }
        if total > MAX_INSTANCES {
            // The engine refuses the kind when a game starts, naming the count.
            return Copies::TooMany(total);
        }
        Copies::Rows(rows)
    }
}
