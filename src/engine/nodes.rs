//! What the rarer kinds of expression node mean, on values already evaluated: a table's cell,
//! a value by the player count, the fold of `count`, `sum`, `min` and `max`, `sorted`'s order,
//! a built-in's default. The compiled closures (`compile/exprs.rs`) and the reference walker
//! of the tests (`reference.rs`) evaluate the operands each their own way and call these, so that one
//! piece of code says what each node gives and how it fails.

use super::eval::{err, none_among_numbers, overflow, R};
use crate::diag::Span;
use crate::ir::{Builtin, List, Program, TableId, Value};

/// The cell in column `column` of row `i` (counting from 1) of a table: `out-of-range` for a
/// row the table does not have.
pub(super) fn table_cell(
    program: &Program,
    table: TableId,
    column: u32,
    i: i64,
    span: Span,
) -> R<Value> {
    let table = &program.tables[table.index()];
    let rows = &table.rows;
    if i < 1 || i as usize > rows.len() {
        return Err(err(
            "out-of-range",
            format!(
                "row {i} of table `{}`, which has {} rows",
                table.name,
                rows.len()
            ),
            span,
            "rows count from 1 to the table's `count(...)`",
        ));
    }
    Ok(rows[i as usize - 1][column as usize].clone())
}

/// Which entry of a value by the player count covers `n` players: `uncovered-player-count`
/// when none does.
pub(super) fn player_count_entry(
    entries: impl IntoIterator<Item = (i64, i64)>,
    n: i64,
    span: Span,
) -> R<usize> {
    entries
        .into_iter()
        .position(|(lo, hi)| lo <= n && n <= hi)
        .ok_or_else(|| {
            err(
                "uncovered-player-count",
                format!("no value for {n} players"),
                span,
                "add an entry for this player count",
            )
        })
}

/// `count`, `sum`, `min` or `max` of a list, fed one element at a time.
pub(super) struct NumberFold {
    b: Builtin,
    span: Span,
    count: i64,
    total: i64,
    least: Option<i64>,
    most: Option<i64>,
}

impl NumberFold {
    /// A fold for built-in `b` (`count`, `sum`, `min` or `max`), failing at `span`.
    pub(super) fn new(b: Builtin, span: Span) -> NumberFold {
        NumberFold {
            b,
            span,
            count: 0,
            total: 0,
            least: None,
            most: None,
        }
    }

    /// Takes one element.
    #[inline]
    pub(super) fn add(&mut self, v: &Value) -> R<()> {
        self.count += 1;
        match *v {
            Value::Int(n) => {
                if self.b == Builtin::Sum {
                    self.total = self
                        .total
                        .checked_add(n)
                        .ok_or_else(|| overflow(self.span))?;
                }
                if matches!(self.b, Builtin::Min | Builtin::Max) {
                    self.least = Some(self.least.map_or(n, |m| m.min(n)));
                    self.most = Some(self.most.map_or(n, |m| m.max(n)));
                }
            }
            // A `none` among numbers is no number: counted, but never summed in silence.
            Value::None if self.b != Builtin::Count => return Err(none_among_numbers(self.span)),
            _ => {}
        }
        Ok(())
    }

    /// Takes `n` elements without looking at them: a count needs only their number.
    #[inline]
    pub(super) fn counted(&mut self, n: usize) {
        self.count += n as i64;
    }

    /// How many elements were taken, and their total (for `sum`).
    #[inline]
    pub(super) fn count_and_total(&self) -> (i64, i64) {
        (self.count, self.total)
    }

    /// The result: the least and greatest of nothing are `none`, as no number would be true.
    pub(super) fn value(&self) -> Value {
        let extreme = |n: Option<i64>| n.map_or(Value::None, Value::Int);
        match self.b {
            Builtin::Count => Value::Int(self.count),
            Builtin::Sum => Value::Int(self.total),
            Builtin::Min => extreme(self.least),
            _ => extreme(self.most),
        }
    }
}

/// The elements of `ranked` in the order of their keys (`keys` holds each element's `width`
/// keys in a row), ties kept in the order they came.
pub(super) fn sorted_by_keys(ranked: &List, keys: &[Value], width: usize) -> List {
    let mut order = super::spare::indices();
    let key = |i: usize| &keys[i * width..(i + 1) * width];
    order.extend(0..ranked.len());
    order.sort_by(|a, b| key(*a).cmp(key(*b)));
    let result: List = order.iter().map(|i| ranked[*i].clone()).collect();
    super::spare::give_indices(order);
    result
}

/// The error of a built-in given a number of arguments it does not take (which the checker
/// rules out).
#[cold]
pub(super) fn wrong_arity(span: Span) -> Box<super::error::RuntimeError> {
    err(
        "type-mismatch",
        "wrong number of arguments",
        span,
        "this is a bug in the checker",
    )
}

/// `m[p]` of a map by player: where seat `p` stands among the keys, from 1. `none`, or a seat
/// the game does not have, is no key: an error at the key, before anything is written.
pub(super) fn player_key(v: Value, players: u8, span: Span) -> R<Value> {
    match v {
        Value::Player(p) if p.get() < players => Ok(Value::Int(p.get() as i64 + 1)),
        Value::Player(p) => Err(err(
            "out-of-range",
            format!(
                "seat {} is not a player of this game of {players}, so not a key of this map",
                p.get() as u32 + 1
            ),
            span,
            "a map by player has one entry for each seat of the game",
        )),
        _ => Err(err(
            "no-value",
            "`none` is not a key of this map, whose keys are the players",
            span,
            "check for `none` first, as in `if p != none { ... }`",
        )),
    }
}

/// `m[c]` of a map by a kind: where instance `c` stands among the keys, from 1 (the checker
/// lets no other kind's instance stand here). `none` is no key: an error at the key, before
/// anything is written.
pub(super) fn instance_key(v: Value, span: Span) -> R<Value> {
    match v {
        Value::Entity(x) => Ok(Value::Int(x.index() as i64 + 1)),
        _ => Err(err(
            "no-value",
            "`none` is not a key of this map, whose keys are a kind's instances",
            span,
            "check for `none` first, as in `if c != none { ... }`",
        )),
    }
}
