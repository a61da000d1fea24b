//! Expressions compiled to closures: the one way the product runs an expression.
//!
//! Each root (see `ir::roots`) becomes a tree of small closures, each of which knows its
//! node's kind, its operands' kinds and the type it gives: a condition gives a `bool`,
//! arithmetic an `i64`, `x.f == y` reads the field and the local in place. Nothing is allocated
//! per evaluation and no string is touched.
//!
//! Compiled code gives the same values, the same errors at the same spans and spends the same
//! work as the reference walker of the tests (`engine::reference`). Work is charged only where
//! it repeats: a unit a call, checked; a unit for each element of the list a query visits,
//! charged and checked before the first; the elements of lists built, and a sixteenth of those
//! of lists scanned (`x in xs`, `sum(xs)`). A node costs nothing of its own (an expression's
//! size is bounded by the checker), so fused code spends what the code it fuses spends. What the rarer
//! nodes mean on values already evaluated (a table's cell, `by players`, a fold, `sorted`'s
//! order) is said once, in `engine::nodes`, for both. `tests/compiled.rs` plays every rules
//! file both ways and compares the games.

use super::fields::FieldFilter;
use crate::diag::Span;
use crate::engine::eval::{arithmetic, take_call_frame, Eval, Items, R, SMALL_FRAME};
use crate::engine::nodes::{self, NumberFold};
use crate::ir::{self, BinOp, Builtin, Expr, ExprKind as K, List, Program, QueryKind, UnOp, Value};

/// Compiled code that gives a `T`.
type Compiled<T> = Box<dyn for<'a> Fn(&mut Eval<'a>, &mut [Value]) -> R<T> + Send + Sync>;
/// A compiled expression that gives a value.
pub(crate) type Node = Compiled<Value>;
/// A compiled condition.
pub(crate) type BoolNode = Compiled<bool>;
/// A compiled whole number.
pub(crate) type IntNode = Compiled<i64>;

/// The compiled code of a program's roots, by [`ir::Expr::root`]: as a value, and also as a
/// condition or a number when the root's shape says it may be read as one (the engine asks
/// for a condition where the checker proved one).
#[derive(Default)]
pub(crate) struct Roots {
    roots: Vec<Node>,
    conditions: Vec<Option<BoolNode>>,
    numbers: Vec<Option<IntNode>>,
    /// A variable's or a field's list, read where it lies by `Eval::items` (the other roots
    /// are read as values).
    sources: Vec<Option<Source>>,
}

impl Roots {
    /// Compiles every numbered root of a program.
    pub(crate) fn compile(program: &Program) -> Roots {
        type Compiled = (u32, Node, Option<BoolNode>, Option<IntNode>, Option<Source>);
        let mut roots: Vec<Compiled> = Vec::new();
        visit_roots(program, &mut |e| {
            if e.root != ir::NOT_ROOT {
                let as_condition = (is_bool(e) || is_read(e)).then(|| condition(e));
                let as_number = (is_int(e) || is_read(e)).then(|| int(e));
                let as_source =
                    matches!(e.kind, K::PlayerVar(..) | K::Field(..)).then(|| Source::new(e));
                roots.push((e.root, value(e), as_condition, as_number, as_source));
            }
        });
        roots.sort_by_key(|r| r.0);
        // Roots are numbered 0..n without gaps; anything else is compiled when evaluated.
        if roots.iter().enumerate().any(|(i, r)| r.0 as usize != i) {
            return Roots::default();
        }
        let mut code = Roots::default();
        for (_, v, c, n, s) in roots {
            code.roots.push(v);
            code.conditions.push(c);
            code.numbers.push(n);
            code.sources.push(s);
        }
        code
    }

    /// How many roots are compiled.
    pub(crate) fn len(&self) -> usize {
        self.roots.len()
    }

    /// The code of root `i`, if compiled.
    #[inline(always)]
    pub fn root(&self, i: u32) -> Option<&Node> {
        self.roots.get(i as usize)
    }

    /// The code of root `i` as a condition, if compiled as one.
    #[inline(always)]
    pub fn condition(&self, i: u32) -> Option<&BoolNode> {
        self.conditions.get(i as usize)?.as_ref()
    }

    /// The code of root `i` as a number, if compiled as one.
    #[inline(always)]
    pub fn number(&self, i: u32) -> Option<&IntNode> {
        self.numbers.get(i as usize)?.as_ref()
    }

    /// The code of root `i` as a list read where it lies, if compiled as one.
    #[inline(always)]
    pub(in crate::engine) fn source(&self, i: u32) -> Option<&Source> {
        self.sources.get(i as usize)?.as_ref()
    }
}

/// Compiles an expression that is no root (see `Code::once`).
pub(crate) fn once(e: &Expr) -> Node {
    value(e)
}

/// Calls `f` on every root of a program (the same order as `ir::roots`, read-only).
fn visit_roots(program: &Program, f: &mut dyn FnMut(&Expr)) {
    // `ir::roots` walks a program mutably; a copy's walk visits the same roots in the same
    // order, and compiling happens once per program and player count.
    let mut copy = program.clone();
    ir::roots::for_each_root(&mut copy, &mut |e| f(e));
}

/// The value of a list literal whose elements are constants or such lists, made once.
fn constant_list(e: &Expr) -> Option<Value> {
    match &e.kind {
        K::Const(v) => Some(v.clone()),
        K::List(items) => {
            let mut list = List::new();
            let elements = list.make_mut();
            for x in items {
                elements.push(constant_list(x)?);
            }
            Some(Value::List(list))
        }
        _ => None,
    }
}

/// Compiles an expression that gives a value.
fn value(e: &Expr) -> Node {
    let span = e.span;
    match &e.kind {
        K::Const(v) => {
            let v = v.clone();
            Box::new(move |_: &mut Eval<'_>, _: &mut [Value]| Ok(v.clone()))
        }
        K::Local(s) => {
            let s = *s as usize;
            Box::new(move |_: &mut Eval<'_>, l: &mut [Value]| Ok(l[s].clone()))
        }
        K::Global(g) => {
            let g = g.index();
            Box::new(move |ev: &mut Eval<'_>, _: &mut [Value]| Ok(ev.state.globals[g].clone()))
        }
        K::PlayerVar(p, v) => {
            let p = PlayerOf::new(p);
            let v = v.index();
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let p = p.get(ev, l)?;
                Ok(ev.state.player_vars.get(p as usize, v).clone())
            })
        }
        K::Field(x, k, f) => {
            let x = EntityOf::new(x, *k);
            let (k, f) = (k.index(), f.index());
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let i = x.get(ev, l)?;
                Ok(ev.state.entities[k].get(i, f).clone())
            })
        }
        K::PlayerCount => {
            Box::new(|ev: &mut Eval<'_>, _: &mut [Value]| Ok(Value::Int(ev.state.players as i64)))
        }
        K::Players => Box::new(|ev: &mut Eval<'_>, _: &mut [Value]| {
            Ok(Value::List(ev.state.players_in().clone()))
        }),
        K::AllPlayers => Box::new(|ev: &mut Eval<'_>, _: &mut [Value]| {
            Ok(Value::List(ev.state.domains.seats.clone()))
        }),
        K::Instances(k) => {
            let k = k.index();
            Box::new(move |ev: &mut Eval<'_>, _: &mut [Value]| {
                Ok(Value::List(ev.state.domains.instances[k].clone()))
            })
        }
        K::EnumValues(id) => {
            let id = id.index();
            Box::new(move |ev: &mut Eval<'_>, _: &mut [Value]| {
                Ok(Value::List(ev.state.domains.enum_values[id].clone()))
            })
        }
        K::Call(id, args) => call(*id, args, span),
        K::Builtin(b, args) => builtin(*b, args, e),
        K::Binary(op, a, b) => binary(*op, a, b, e),
        K::Unary(UnOp::Not, _) => {
            let c = condition(e);
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| Ok(Value::bool(c(ev, l)?)))
        }
        K::Unary(UnOp::Neg, _) => {
            let n = int(e);
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| Ok(Value::Int(n(ev, l)?)))
        }
        K::If(c, a, b) => {
            let (c, a, b) = (condition(c), value(a), value(b));
            Box::new(
                move |ev: &mut Eval<'_>, l: &mut [Value]| {
                    if c(ev, l)? {
                        a(ev, l)
                    } else {
                        b(ev, l)
                    }
                },
            )
        }
        K::List(items) => list_literal(e, items),
        K::Query {
            kind,
            slot,
            source,
            filter,
            map,
            keys,
        } => query(
            e,
            *kind,
            *slot,
            source,
            filter.as_deref(),
            map.as_deref(),
            keys,
        ),
        K::TableCell { table, column, row } => table_cell(*table, *column, row, span),
        K::ByPlayers(entries) => by_players(entries, span),
    }
}

/// A list literal: made once when its elements are constants, else built from its
/// elements' code.
fn list_literal(e: &Expr, items: &[Expr]) -> Node {
    // A list of constants (or of such lists: `[[], [small, big]]`) is made once and
    // shared: writing to it copies it first.
    if let Some(list) = constant_list(e) {
        return Box::new(move |_: &mut Eval<'_>, _: &mut [Value]| Ok(list.clone()));
    }
    let items: Vec<Node> = items.iter().map(value).collect();
    Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
        let mut out = List::new();
        let elements = out.make_mut();
        for x in &items {
            elements.push(x(ev, l)?);
        }
        Ok(Value::List(out))
    })
}

/// A query as a value: `any` and `all` through their condition's code, the list, `top` and
/// `bottom`, and `sorted`.
fn query(
    e: &Expr,
    kind: QueryKind,
    slot: ir::Slot,
    source: &Expr,
    filter: Option<&Expr>,
    map: Option<&Expr>,
    keys: &[Expr],
) -> Node {
    match kind {
        QueryKind::Any | QueryKind::All => {
            let c = condition(e);
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| Ok(Value::bool(c(ev, l)?)))
        }
        QueryKind::List => {
            let q = Each::new(slot, source, filter, map);
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| q.collect(ev, l).map(Value::List))
        }
        QueryKind::Top | QueryKind::Bottom => {
            ranked(kind == QueryKind::Top, slot, source, filter, keys)
        }
        QueryKind::Sorted => sorted(slot, source, filter, keys),
    }
}

/// A table's cell: the row's number found when it runs, the column known now.
fn table_cell(table: ir::TableId, column: u32, row: &Expr, span: Span) -> Node {
    let row = checked_int(row, "a number", row.span);
    Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
        let i = row(ev, l)?;
        nodes::table_cell(ev.program, table, column, i, span)
    })
}

/// `by players { ... }`: every entry is compiled, and the code is chosen by the state's
/// player count.
fn by_players(entries: &[(i64, i64, Expr)], span: Span) -> Node {
    let ranges: Vec<(i64, i64)> = entries.iter().map(|(lo, hi, _)| (*lo, *hi)).collect();
    let code: Vec<Node> = entries.iter().map(|(_, _, x)| value(x)).collect();
    Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
        let n = ev.state.players as i64;
        let at = nodes::player_count_entry(ranges.iter().copied(), n, span)?;
        code[at](ev, l)
    })
}

/// `sorted(x in xs where f by k1, k2, ...)`: the elements that pass, in the order of their keys,
/// each element's keys read as it passes. Spends, reads and fails as the walker's query does.
fn sorted(slot: ir::Slot, source: &Expr, filter: Option<&Expr>, keys: &[Expr]) -> Node {
    let source_span = source.span;
    let (source, filter) = (Source::new(source), filter.map(condition));
    let keys: Vec<IntNode> = keys.iter().map(int).collect();
    let slot = slot as usize;
    Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
        // Keys of every element that passes, flat, `keys.len()` to an element.
        let mut ranked_keys = crate::engine::spare::values();
        let mut ranked = List::new();
        let mut visit = |ev: &mut Eval<'_>, l: &mut [Value]| -> R<()> {
            let items = source.items(ev, l)?;
            ev.visit(items.len(), source_span)?;
            for item in items.iter() {
                l[slot].put(item.clone());
                if let Some(f) = &filter {
                    if !f(ev, l)? {
                        continue;
                    }
                }
                for k in &keys {
                    ranked_keys.push(Value::Int(k(ev, l)?));
                }
                ranked.push(item.clone());
            }
            Ok(())
        };
        let result = visit(ev, l)
            .map(|()| Value::List(nodes::sorted_by_keys(&ranked, &ranked_keys, keys.len())));
        crate::engine::spare::give_values(ranked_keys);
        result
    })
}

/// `top(x in xs where f by k1, k2, ...)` (the greatest, `top`) or `bottom(...)`: the elements
/// that pass, narrowed by each key in turn to those tied on it, a later key read only for the
/// elements still tied (and not at all once one is left). Spends, reads and fails as the
/// walker's query does: the elements' work through [`Each`], each key's through its code.
fn ranked(top: bool, slot: ir::Slot, source: &Expr, filter: Option<&Expr>, keys: &[Expr]) -> Node {
    let each = Each::new(slot, source, filter, None);
    let keys: Vec<IntNode> = keys.iter().map(int).collect();
    let slot = slot as usize;
    Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
        let passed = each.collect(ev, l)?;
        crate::engine::eval::ranked(&passed, keys.len(), top, |n, item| {
            l[slot].put(item.clone());
            keys[n](ev, l)
        })
        .map(Value::List)
    })
}

/// True if the expression reads a variable, a field or a local: code can read it in place as
/// the type wanted.
fn is_read(e: &Expr) -> bool {
    matches!(
        e.kind,
        K::Local(_) | K::Global(_) | K::Field(..) | K::PlayerVar(..)
    )
}

/// True if the expression is a condition by its shape.
fn is_bool(e: &Expr) -> bool {
    matches!(
        e.kind,
        K::Const(Value::Bool(_))
            | K::Unary(UnOp::Not, _)
            | K::Query {
                kind: QueryKind::Any | QueryKind::All,
                ..
            }
            | K::Binary(
                BinOp::And
                    | BinOp::Or
                    | BinOp::Eq
                    | BinOp::Ne
                    | BinOp::Lt
                    | BinOp::Le
                    | BinOp::Gt
                    | BinOp::Ge
                    | BinOp::In
                    | BinOp::NotIn,
                _,
                _
            )
    )
}

/// Code that reads a variable, a field or a local in place and gives what `take` makes of it
/// (a `bool`, an `i64`, or what a node above the read makes of that: `not x`, `x > 3`),
/// failing with `want` at `span` when it is something else: no value is copied out to be
/// looked at.
fn read<T: 'static, F>(e: &Expr, take: F, want: &'static str, span: Span) -> Option<Compiled<T>>
where
    // A function item or closure, a type of its own (not a function pointer): each read is
    // compiled with its conversion inlined.
    F: Fn(&Value) -> Option<T> + Copy + Send + Sync + 'static,
{
    let fail = move |ev: &Eval<'_>, v: &Value| ev.wrong(v, want, span);
    Some(match &e.kind {
        K::Local(s) => {
            let s = *s as usize;
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let t = take(&l[s]).ok_or_else(|| fail(ev, &l[s]))?;
                Ok(t)
            })
        }
        K::Global(g) => {
            let g = g.index();
            Box::new(move |ev: &mut Eval<'_>, _: &mut [Value]| {
                let v = &ev.state.globals[g];
                let t = take(v).ok_or_else(|| fail(ev, v))?;
                Ok(t)
            })
        }
        K::PlayerVar(p, v) => {
            let (p, v) = (PlayerOf::new(p), v.index());
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let p = p.get(ev, l)?;
                let v = ev.state.player_vars.get(p as usize, v);
                let t = take(v).ok_or_else(|| fail(ev, v))?;
                Ok(t)
            })
        }
        K::Field(x, k, f) => {
            let x = EntityOf::new(x, *k);
            let (k, f) = (k.index(), f.index());
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let i = x.get(ev, l)?;
                let v = ev.state.entities[k].get(i, f);
                let t = take(v).ok_or_else(|| fail(ev, v))?;
                Ok(t)
            })
        }
        _ => return None,
    })
}

/// `x op y` for an order of numbers.
#[inline(always)]
fn ordered(op: BinOp, x: i64, y: i64) -> bool {
    match op {
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        _ => x >= y,
    }
}

fn take_bool(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(b.get()),
        _ => None,
    }
}

fn take_int(v: &Value) -> Option<i64> {
    match v {
        Value::Int(n) => Some(*n),
        _ => None,
    }
}

/// Compiles a condition.
fn condition(e: &Expr) -> BoolNode {
    let span = e.span;
    if let Some(code) = read(e, take_bool, "true or false", span) {
        return code;
    }
    match &e.kind {
        K::Const(Value::Bool(b)) => {
            let b = b.get();
            Box::new(move |_: &mut Eval<'_>, _: &mut [Value]| Ok(b))
        }
        // `not x` of a variable, a field or a local: the read and the `not` in one closure.
        K::Unary(UnOp::Not, x) if is_read(x) => {
            let not = |v: &Value| take_bool(v).map(|b| !b);
            read(x, not, "true or false", x.span).expect("a read")
        }
        K::Unary(UnOp::Not, x) => {
            let x = condition(x);
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| Ok(!x(ev, l)?))
        }
        K::Binary(BinOp::And, a, b) => {
            let (a, b) = (condition(a), condition(b));
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| Ok(a(ev, l)? && b(ev, l)?))
        }
        K::Binary(BinOp::Or, a, b) => {
            let (a, b) = (condition(a), condition(b));
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| Ok(a(ev, l)? || b(ev, l)?))
        }
        K::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => equality(*op == BinOp::Eq, a, b),
        // `x.f > 3`: the comparison, the read and the constant in one closure.
        K::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b)
            if is_read(a) && matches!(b.kind, K::Const(Value::Int(_))) =>
        {
            let (op, K::Const(Value::Int(c))) = (*op, &b.kind) else {
                unreachable!("matched above")
            };
            let c = *c;
            let compare = move |v: &Value| take_int(v).map(|x| ordered(op, x, c));
            read(a, compare, "operands that fit the operator", span).expect("a read")
        }
        K::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) => {
            let (op, x, y) = (*op, operand(a, span), operand(b, span));
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let (x, y) = (x(ev, l)?, y(ev, l)?);
                Ok(ordered(op, x, y))
            })
        }
        K::Binary(op @ (BinOp::In | BinOp::NotIn), a, b) => {
            let want = *op == BinOp::In;
            let (x, xs) = (value(a), Source::new(b));
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let x = x(ev, l)?;
                let items = xs.read(ev, l)?;
                ev.spend(crate::engine::eval::scan_work(items.len()));
                let found = items.contains(&x);
                Ok(found == want)
            })
        }
        K::Query {
            kind: kind @ (QueryKind::Any | QueryKind::All),
            slot,
            source,
            filter,
            ..
        } => {
            let want = *kind == QueryKind::Any;
            let slot = *slot as usize;
            let source_span = source.span;
            let each = Each::new(slot as ir::Slot, source, filter.as_deref(), None);
            let (source, filter) = (Source::new(source), filter.as_deref().map(condition));
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let items = source.items(ev, l)?;
                ev.visit(items.len(), source_span)?;
                if let Some(found) = each.seek(ev, l, &items, false, want) {
                    return Ok(if found.is_some() { want } else { !want });
                }
                for item in items.iter() {
                    l[slot].put(item.clone());
                    let pass = match &filter {
                        Some(f) => f(ev, l)?,
                        None => true,
                    };
                    if pass == want {
                        return Ok(want);
                    }
                }
                Ok(!want)
            })
        }
        _ => {
            let v = value(e);
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| match v(ev, l)? {
                Value::Bool(b) => Ok(b.get()),
                v => Err(ev.wrong(&v, "true or false", span)),
            })
        }
    }
}

/// True if the expression gives a number or fails, whatever the state: its code may give an
/// `i64` without a check. (`+` also joins lists, so it is a number when one side is.)
fn is_int(e: &Expr) -> bool {
    match &e.kind {
        K::Const(Value::Int(_)) | K::PlayerCount | K::Unary(UnOp::Neg, _) => true,
        K::Binary(BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod, _, _) => true,
        K::Binary(BinOp::Add, a, b) => is_int(a) || is_int(b),
        K::Builtin(Builtin::Count | Builtin::Sum, args) => args.len() == 1,
        _ => false,
    }
}

/// An operand that must be a number: typed code when it surely is one, else its value checked,
/// failing as the walker fails (`want`, at `span`).
fn operand(e: &Expr, span: Span) -> IntNode {
    checked_int(e, "operands that fit the operator", span)
}

fn checked_int(e: &Expr, want: &'static str, span: Span) -> IntNode {
    if is_int(e) {
        return int(e);
    }
    if let Some(code) = read(e, take_int, want, span) {
        return code;
    }
    let v = value(e);
    Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| match v(ev, l)? {
        Value::Int(n) => Ok(n),
        v => Err(ev.wrong(&v, want, span)),
    })
}

/// `a == b` (or `!=`), reading locals and constants in place.
fn equality(eq: bool, a: &Expr, b: &Expr) -> BoolNode {
    match (&a.kind, &b.kind) {
        (K::Local(s), K::Const(c)) | (K::Const(c), K::Local(s)) => {
            let (s, c) = (*s as usize, c.clone());
            Box::new(move |_: &mut Eval<'_>, l: &mut [Value]| Ok((l[s] == c) == eq))
        }
        (K::Local(s), K::Local(t)) => {
            let (s, t) = (*s as usize, *t as usize);
            Box::new(move |_: &mut Eval<'_>, l: &mut [Value]| Ok((l[s] == l[t]) == eq))
        }
        (K::Field(x, k, f), K::Local(t)) => {
            // `x.f == y`: the field compared where it lies.
            let x = EntityOf::new(x, *k);
            let (k, f, t) = (k.index(), f.index(), *t as usize);
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let i = x.get(ev, l)?;
                Ok((*ev.state.entities[k].get(i, f) == l[t]) == eq)
            })
        }
        (K::Field(x, k, f), K::Const(c)) => {
            let x = EntityOf::new(x, *k);
            let (k, f, c) = (k.index(), f.index(), c.clone());
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let i = x.get(ev, l)?;
                Ok((*ev.state.entities[k].get(i, f) == c) == eq)
            })
        }
        (K::Global(g), K::Const(c)) => {
            let (g, c) = (g.index(), c.clone());
            Box::new(move |ev: &mut Eval<'_>, _: &mut [Value]| Ok((ev.state.globals[g] == c) == eq))
        }
        (K::PlayerVar(p, v), K::Const(c)) => {
            let p = PlayerOf::new(p);
            let (v, c) = (v.index(), c.clone());
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let p = p.get(ev, l)?;
                Ok((*ev.state.player_vars.get(p as usize, v) == c) == eq)
            })
        }
        (K::PlayerVar(p, v), K::Local(t)) => {
            let p = PlayerOf::new(p);
            let (v, t) = (v.index(), *t as usize);
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let p = p.get(ev, l)?;
                Ok((*ev.state.player_vars.get(p as usize, v) == l[t]) == eq)
            })
        }
        (_, K::Const(c)) => {
            let (x, c) = (value(a), c.clone());
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| Ok((x(ev, l)? == c) == eq))
        }
        (K::Local(s), _) => {
            let (s, y) = (*s as usize, value(b));
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let y = y(ev, l)?;
                Ok((l[s] == y) == eq)
            })
        }
        _ => {
            let (x, y) = (value(a), value(b));
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let x = x(ev, l)?;
                let y = y(ev, l)?;
                Ok((x == y) == eq)
            })
        }
    }
}

/// Compiles a whole number.
fn int(e: &Expr) -> IntNode {
    let span = e.span;
    if let Some(code) = read(e, take_int, "a number", span) {
        return code;
    }
    match &e.kind {
        K::Const(Value::Int(n)) => {
            let n = *n;
            Box::new(move |_: &mut Eval<'_>, _: &mut [Value]| Ok(n))
        }
        K::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod), a, b) => {
            let (op, x, y) = (*op, operand(a, span), operand(b, span));
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let (x, y) = (x(ev, l)?, y(ev, l)?);
                arithmetic(op, x, y, span)
            })
        }
        K::Unary(UnOp::Neg, x) => {
            let x = checked_int(x, "a number or a truth value", x.span);
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                x(ev, l)?
                    .checked_neg()
                    .ok_or_else(|| crate::engine::eval::overflow(span))
            })
        }
        K::Builtin(b @ (Builtin::Count | Builtin::Sum), args) if args.len() == 1 => {
            let (fold, sum) = (Fold::new(*b, &args[0], span), *b == Builtin::Sum);
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let (count, total) = fold.run(ev, l)?.count_and_total();
                Ok(if sum { total } else { count })
            })
        }
        _ => {
            let v = value(e);
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| match v(ev, l)? {
                Value::Int(n) => Ok(n),
                v => Err(ev.wrong(&v, "a number", span)),
            })
        }
    }
}

/// `a op b` as a value.
fn binary(op: BinOp, a: &Expr, b: &Expr, e: &Expr) -> Node {
    let span = e.span;
    match op {
        BinOp::And
        | BinOp::Or
        | BinOp::Eq
        | BinOp::Ne
        | BinOp::In
        | BinOp::NotIn
        | BinOp::Lt
        | BinOp::Le
        | BinOp::Gt
        | BinOp::Ge => {
            let c = condition(e);
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| Ok(Value::bool(c(ev, l)?)))
        }
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod if is_int(e) => {
            let n = int(e);
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| Ok(Value::Int(n(ev, l)?)))
        }
        _ => {
            let (x, y) = (value(a), value(b));
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let x = x(ev, l)?;
                let y = y(ev, l)?;
                ev.combine(op, x, y, span)
            })
        }
    }
}

/// A call of a def: its arguments into a frame, then its (compiled) body.
fn call(id: ir::DefId, args: &[Expr], span: Span) -> Node {
    let args: Vec<Node> = args.iter().map(value).collect();
    Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
        ev.spend(1);
        ev.check_work(span)?;
        if ev.depth >= crate::engine::eval::MAX_CALL_DEPTH {
            return Err(ev.too_deep(id, span));
        }
        let size = ev.program.defs[id.index()].locals.max(args.len());
        // The frame is as small as the def allows: every slot is set up and dropped on each
        // call, remembered or not, and most defs take one or two.
        if size <= 2 {
            call_on_stack::<2>(ev, l, id, &args, size)
        } else if size <= 4 {
            call_on_stack::<4>(ev, l, id, &args, size)
        } else if size <= SMALL_FRAME {
            call_on_stack::<SMALL_FRAME>(ev, l, id, &args, size)
        } else {
            let mut frame = take_call_frame(size);
            let filled = frame
                .iter_mut()
                .zip(&args)
                .try_for_each(|(slot, a)| a(ev, l).map(|v| *slot = v));
            let v = filled.and_then(|()| ev.enter(id, &mut frame, args.len()));
            crate::engine::spare::give_values(frame);
            v
        }
    })
}

/// Calls def `id` with the values of `args` in a frame of `N` slots on the stack, `size` of
/// them in use.
#[inline(always)]
fn call_on_stack<const N: usize>(
    ev: &mut Eval<'_>,
    l: &mut [Value],
    id: ir::DefId,
    args: &[Node],
    size: usize,
) -> R<Value> {
    let mut frame = [const { Value::None }; N];
    for (slot, a) in frame.iter_mut().zip(args) {
        slot.put(a(ev, l)?);
    }
    ev.enter(id, &mut frame[..size], args.len())
}

/// `min([a, b, ...])` or `max(...)` of a list written out: the least (greatest) of its
/// elements, each evaluated in order, without building the list. It fails as the list built
/// first would on a `none`.
fn extreme_of_literal(greatest: bool, items: &[Expr], span: Span) -> Node {
    let items: Vec<Node> = items.iter().map(value).collect();
    Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
        let mut best: Option<i64> = None;
        // Every element is evaluated before a `none` among them fails, as when the list is
        // built first.
        let mut none = false;
        for x in &items {
            match x(ev, l)? {
                Value::Int(n) => {
                    best = Some(best.map_or(n, |m| if greatest { m.max(n) } else { m.min(n) }));
                }
                Value::None => none = true,
                _ => {}
            }
        }
        if none {
            return Err(crate::engine::eval::none_among_numbers(span));
        }
        Ok(best.map_or(Value::None, Value::Int))
    })
}

/// A built-in call.
fn builtin(b: Builtin, args: &[Expr], e: &Expr) -> Node {
    let span = e.span;
    match (b, args) {
        (Builtin::Count | Builtin::Sum, [_]) => {
            let n = int(e);
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| Ok(Value::Int(n(ev, l)?)))
        }
        (Builtin::Min | Builtin::Max, [arg]) => match &arg.kind {
            K::List(items) => extreme_of_literal(b == Builtin::Max, items, span),
            _ => {
                let fold = Fold::new(b, arg, span);
                Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| Ok(fold.run(ev, l)?.value()))
            }
        },
        (Builtin::First | Builtin::Last, [arg, default @ ..])
            if default.len() <= 1
                && matches!(
                    arg.kind,
                    K::Query {
                        kind: QueryKind::List,
                        ..
                    }
                ) =>
        {
            first_found(b == Builtin::Last, arg, default.first())
        }
        // `min(xs, d)`, `first(xs, d)`: `d` when the list is empty.
        (_, [a, d]) if b.takes_default() => with_default(b, a, d, span),
        (Builtin::First | Builtin::Last, [a])
            if matches!(
                a.kind,
                K::Local(_)
                    | K::Global(_)
                    | K::PlayerVar(..)
                    | K::Field(..)
                    | K::Players
                    | K::Instances(_)
                    | K::EnumValues(_)
            ) =>
        {
            // The first or last element read where the list lies, no handle to it taken.
            let (xs, from_end) = (Source::new(a), b == Builtin::Last);
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| xs.end(ev, l, from_end, span))
        }
        (_, [a]) => {
            let a = value(a);
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let v = a(ev, l)?;
                ev.builtin(b, v, span)
            })
        }
        (_, [a, c]) => {
            let (a, c) = (value(a), value(c));
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let x = a(ev, l)?;
                let y = c(ev, l)?;
                ev.builtin2(b, x, y, Value::None, span)
            })
        }
        // `clamp(x, lo, hi)`, and `xs[i] = v`'s list with one element replaced.
        (_, [a, c, d]) => {
            let (a, c, d) = (value(a), value(c), value(d));
            Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
                let x = a(ev, l)?;
                let y = c(ev, l)?;
                let z = d(ev, l)?;
                ev.builtin2(b, x, y, z, span)
            })
        }
        _ => Box::new(move |_: &mut Eval<'_>, _: &mut [Value]| Err(nodes::wrong_arity(span))),
    }
}

/// `first(x in xs where f)` or `last(...)` (with a default, or not): the query stops at the
/// first element that passes, from its end for `last`, no list built.
fn first_found(from_end: bool, query: &Expr, default: Option<&Expr>) -> Node {
    let K::Query {
        slot,
        source,
        filter,
        map,
        ..
    } = &query.kind
    else {
        unreachable!("matched above")
    };
    let q = Each::new(*slot, source, filter.as_deref(), map.as_deref());
    let default = default.map(value);
    Box::new(
        move |ev: &mut Eval<'_>, l: &mut [Value]| match (q.find(ev, l, from_end)?, &default) {
            (Value::None, Some(d)) => d(ev, l),
            (v, _) => Ok(v),
        },
    )
}

/// A built-in that takes a default (`min(xs, d)`, `first(xs, d)`): `d` when the list is
/// empty, `min` and `max` folded without building the list.
fn with_default(b: Builtin, a: &Expr, d: &Expr, span: Span) -> Node {
    let (fold, a) = match b {
        Builtin::Min | Builtin::Max => (Some(Fold::new(b, a, span)), None),
        _ => (None, Some(value(a))),
    };
    let d = value(d);
    Box::new(move |ev: &mut Eval<'_>, l: &mut [Value]| {
        let v = match (&fold, &a) {
            (Some(fold), _) => fold.run(ev, l)?.value(),
            (_, Some(a)) => {
                let xs = a(ev, l)?;
                ev.builtin(b, xs, span)?
            }
            _ => unreachable!("one of the two is compiled"),
        };
        match v {
            Value::None => d(ev, l),
            v => Ok(v),
        }
    })
}

/// A player read from an expression, a local read in place as the walker does.
pub(in crate::engine) enum PlayerOf {
    Local(usize, Span),
    Node(Node, Span),
}

impl PlayerOf {
    fn new(e: &Expr) -> PlayerOf {
        match e.kind {
            K::Local(s) => PlayerOf::Local(s as usize, e.span),
            _ => PlayerOf::Node(value(e), e.span),
        }
    }

    #[inline(always)]
    fn get(&self, ev: &mut Eval<'_>, l: &mut [Value]) -> R<u8> {
        match self {
            PlayerOf::Local(s, span) => match l[*s] {
                Value::Player(p) => Ok(p.get()),
                ref v => ev.as_player(v.clone(), *span),
            },
            PlayerOf::Node(n, span) => {
                let v = n(ev, l)?;
                ev.as_player(v, *span)
            }
        }
    }
}

/// An instance of a known kind read from an expression, a local read in place.
pub(in crate::engine) enum EntityOf {
    Local(usize, ir::KindId, Span),
    Node(Node, ir::KindId, Span),
}

impl EntityOf {
    fn new(e: &Expr, k: ir::KindId) -> EntityOf {
        match e.kind {
            K::Local(s) => EntityOf::Local(s as usize, k, e.span),
            _ => EntityOf::Node(value(e), k, e.span),
        }
    }

    #[inline(always)]
    fn get(&self, ev: &mut Eval<'_>, l: &mut [Value]) -> R<usize> {
        match self {
            EntityOf::Local(s, k, span) => match l[*s] {
                Value::Entity(x) if x.kind() == *k => Ok(x.index() as usize),
                ref v => ev.as_entity(v.clone(), *k, *span),
            },
            EntityOf::Node(n, k, span) => {
                let v = n(ev, l)?;
                ev.as_entity(v, *k, *span)
            }
        }
    }
}

/// A list read for a query or `in`: where it lies in the state when it can be, as the
/// walker's `Eval::items` does.
pub(in crate::engine) enum Source {
    Global(usize, Span),
    PlayerVar(PlayerOf, usize, Span),
    Field(EntityOf, usize, usize, Span),
    EnumValues(usize),
    Instances(usize),
    Players,
    Local(usize, Span),
    Computed(Node, Span),
}

impl Source {
    fn new(e: &Expr) -> Source {
        match &e.kind {
            K::Global(g) => Source::Global(g.index(), e.span),
            K::PlayerVar(p, v) => Source::PlayerVar(PlayerOf::new(p), v.index(), e.span),
            K::Field(x, k, f) => Source::Field(EntityOf::new(x, *k), k.index(), f.index(), e.span),
            K::EnumValues(id) => Source::EnumValues(id.index()),
            K::Instances(k) => Source::Instances(k.index()),
            K::Players => Source::Players,
            K::Local(s) => Source::Local(*s as usize, e.span),
            _ => Source::Computed(value(e), e.span),
        }
    }

    /// `first(xs)` (or `last`, `from_end`) of this list, read where it lies. A value that is
    /// no list fails as `first` fails (`span`, the call's).
    fn end(&self, ev: &mut Eval<'_>, l: &mut [Value], from_end: bool, span: Span) -> R<Value> {
        let b = if from_end {
            Builtin::Last
        } else {
            Builtin::First
        };
        let pick = |xs: &[Value]| {
            if from_end { xs.last() } else { xs.first() }
                .cloned()
                .unwrap_or(Value::None)
        };
        let state = ev.state;
        let stored = match self {
            Source::Global(g, _) => &state.globals[*g],
            Source::PlayerVar(p, v, _) => {
                let p = p.get(ev, l)?;
                state.player_vars.get(p as usize, *v)
            }
            Source::Field(x, k, f, _) => {
                let i = x.get(ev, l)?;
                state.entities[*k].get(i, *f)
            }
            Source::EnumValues(id) => return Ok(pick(&state.domains.enum_values[*id])),
            Source::Instances(k) => return Ok(pick(&state.domains.instances[*k])),
            Source::Players => return Ok(pick(state.players_in())),
            Source::Local(s, _) => &l[*s],
            Source::Computed(n, _) => {
                let v = n(ev, l)?;
                return ev.builtin(b, v, span);
            }
        };
        match stored {
            Value::List(xs) => Ok(pick(xs)),
            v => ev.builtin(b, v.clone(), span),
        }
    }

    /// The elements, read where they lie when the list is a local's: no handle to it taken and
    /// let go (two atomic changes of its count), as [`Source::items`] takes one. The slots stay
    /// borrowed meanwhile: for a reading that evaluates nothing.
    #[inline]
    fn read<'a: 'l, 'l>(&self, ev: &mut Eval<'a>, l: &'l mut [Value]) -> R<Items<'l>> {
        match self {
            Source::Local(s, span) => match &l[*s] {
                Value::List(xs) => Ok(Items::Lies(xs)),
                v => Err(ev.wrong(v, "a list", *span)),
            },
            _ => self.items(ev, l),
        }
    }

    /// The elements: borrowed where they lie in the state, or held.
    #[inline]
    pub(in crate::engine) fn items<'a>(&self, ev: &mut Eval<'a>, l: &mut [Value]) -> R<Items<'a>> {
        let state = ev.state;
        let (stored, span) = match self {
            Source::Global(g, span) => (&state.globals[*g], *span),
            Source::PlayerVar(p, v, span) => {
                let p = p.get(ev, l)?;
                (state.player_vars.get(p as usize, *v), *span)
            }
            Source::Field(x, k, f, span) => {
                let i = x.get(ev, l)?;
                (state.entities[*k].get(i, *f), *span)
            }
            Source::EnumValues(id) => return Ok(Items::Lies(&state.domains.enum_values[*id])),
            Source::Instances(k) => return Ok(Items::Lies(&state.domains.instances[*k])),
            Source::Players => return Ok(Items::Lies(state.players_in())),
            Source::Local(s, span) => {
                return match &l[*s] {
                    Value::List(xs) => Ok(Items::Held(xs.clone())),
                    v => Err(ev.wrong(v, "a list", *span)),
                }
            }
            Source::Computed(n, span) => {
                return match n(ev, l)? {
                    Value::List(xs) => Ok(Items::Held(xs)),
                    v => Err(ev.wrong(&v, "a list", *span)),
                }
            }
        };
        match stored {
            Value::List(xs) => Ok(Items::Lies(xs)),
            v => Err(ev.wrong(v, "a list", span)),
        }
    }
}

/// The elements of a source that pass a filter, each bound to a slot and mapped.
struct Each {
    slot: usize,
    source: Source,
    source_span: Span,
    filter: Option<BoolNode>,
    map: Option<Node>,
    /// The filter, when it compares the element itself with a local or a constant and there
    /// is no map: then the elements are compared where they lie, none bound to the slot.
    matching: Option<Matching>,
    /// The filter, when there is no map and it tests only the element's fields: run over the
    /// whole list in one loop ([`FieldFilter`]).
    fields: Option<FieldFilter>,
    /// The filter and the map, when the filter tests only the element's fields (or there is
    /// none) and the map reads one of them (`sum(c.weight for c in cube where c.heavy)`):
    /// both in one loop.
    mapped: Option<MappedField>,
}

/// A comprehension's field filter, if it has a filter, and the field its map reads (see
/// [`Each::mapped`]).
struct MappedField {
    filter: Option<FieldFilter>,
    /// The kind of the instance whose field the map reads, and the field.
    kind: usize,
    field: usize,
}

/// A filter `x == y` or `x != y` of the element `x` itself, or of one of its fields (`x.f ==
/// y`, `y == x.f`), `y` a local or a constant: the elements are compared where they lie, in one
/// loop, none bound to the slot (only when every element can be compared: otherwise the general
/// path fails where it would). A [`FieldFilter`] would take the fields' comparisons too, but
/// through its tree: measured, leaving
/// them to it cost up to 2.9% more instructions per decision on one of the seed games
/// (docs/performance-log.md).
struct Matching {
    against: Against,
    equal: bool,
    /// What of the element is compared.
    compared: Compared,
}

/// What the element is compared with.
enum Against {
    Local(usize),
    Const(Value),
}

/// The part of the element a matching filter compares.
enum Compared {
    /// The element itself.
    Element,
    /// A field of the element, an instance of `kind`.
    Field { kind: usize, field: usize },
}

impl Matching {
    fn new(slot: ir::Slot, filter: &Expr) -> Option<Matching> {
        let K::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) = &filter.kind else {
            return None;
        };
        let against = |other: &Expr| match &other.kind {
            K::Local(t) if *t != slot => Some(Against::Local(*t as usize)),
            K::Const(c) => Some(Against::Const(c.clone())),
            _ => None,
        };
        let own_field = |e: &Expr| match &e.kind {
            K::Field(x, k, f) if matches!(x.kind, K::Local(s) if s == slot) => {
                Some(Compared::Field {
                    kind: k.index(),
                    field: f.index(),
                })
            }
            _ => None,
        };
        let (against, compared) = match (&a.kind, &b.kind) {
            (K::Local(s), _) if *s == slot => (against(b)?, Compared::Element),
            (_, K::Local(s)) if *s == slot => (against(a)?, Compared::Element),
            (K::Field(..), K::Local(_)) => (against(b)?, own_field(a)?),
            (K::Field(..), K::Const(_)) => (against(b)?, own_field(a)?),
            (K::Local(_), K::Field(..)) => (against(a)?, own_field(b)?),
            _ => return None,
        };
        Some(Matching {
            against,
            equal: *op == BinOp::Eq,
            compared,
        })
    }

    /// What the element is compared with: the local's value in frame `l`, or the constant.
    #[inline]
    fn target<'v>(&'v self, l: &'v [Value]) -> &'v Value {
        match &self.against {
            Against::Local(t) => &l[*t],
            Against::Const(c) => c,
        }
    }

    /// What is compared of `item`: itself, or its field; `None` when it is no instance of the
    /// field's kind (the general path then fails as it fails).
    #[inline]
    fn part<'v>(&self, state: &'v crate::engine::State, item: &'v Value) -> Option<&'v Value> {
        match self.compared {
            Compared::Element => Some(item),
            Compared::Field { kind, field } => match item {
                Value::Entity(x) if x.kind().index() == kind => {
                    Some(state.entities[kind].get(x.index() as usize, field))
                }
                _ => None,
            },
        }
    }
}

impl Each {
    fn new(slot: ir::Slot, source: &Expr, filter: Option<&Expr>, map: Option<&Expr>) -> Each {
        Each {
            slot: slot as usize,
            source: Source::new(source),
            source_span: source.span,
            filter: filter.map(condition),
            map: map.map(value),
            matching: filter
                .filter(|_| map.is_none())
                .and_then(|f| Matching::new(slot, f)),
            fields: filter
                .filter(|_| map.is_none())
                .and_then(|f| FieldFilter::new(f, slot)),
            mapped: match map.map(|m| &m.kind) {
                Some(K::Field(x, k, field)) if matches!(x.kind, K::Local(s) if s == slot) => {
                    let filter = match filter {
                        Some(f) => FieldFilter::new(f, slot).map(Some),
                        None => Some(None),
                    };
                    filter.map(|filter| MappedField {
                        filter,
                        kind: k.index(),
                        field: field.index(),
                    })
                }
                _ => None,
            },
        }
    }

    /// The first element (the last, `from_end`) for which the filter gives `want`, found by
    /// the field filter: `None` when the general path must look (it may fail).
    fn seek(
        &self,
        ev: &Eval<'_>,
        l: &[Value],
        items: &[Value],
        from_end: bool,
        want: bool,
    ) -> Option<Option<usize>> {
        self.fields
            .as_ref()?
            .seek(ev.state, l, items, (0, from_end), want)
    }

    /// The first element that passes (the last, `from_end`), mapped; `none` if none does.
    fn find(&self, ev: &mut Eval<'_>, l: &mut [Value], from_end: bool) -> R<Value> {
        let items = self.source.items(ev, l)?;
        let n = items.len();
        ev.visit(n, self.source_span)?;
        if let Some(m) = &self.matching {
            let target = m.target(l);
            let at = |k: usize| if from_end { n - 1 - k } else { k };
            let state = ev.state;
            // The first that passes, unless an element before it cannot be compared here.
            let mut found = Some(None);
            for k in 0..n {
                match m.part(state, &items[at(k)]) {
                    Some(v) if (*v == *target) == m.equal => {
                        found = Some(Some(k));
                        break;
                    }
                    Some(_) => {}
                    None => {
                        found = None;
                        break;
                    }
                }
            }
            if let Some(found) = found {
                return Ok(found.map_or(Value::None, |k| items[at(k)].clone()));
            }
        }
        if let Some(found) = self.seek(ev, l, &items, from_end, true) {
            return Ok(found.map_or(Value::None, |k| items[k].clone()));
        }
        for k in 0..n {
            let item = &items[if from_end { n - 1 - k } else { k }];
            l[self.slot].put(item.clone());
            if let Some(f) = &self.filter {
                if !f(ev, l)? {
                    continue;
                }
            }
            return match &self.map {
                Some(m) => m(ev, l),
                None => Ok(item.clone()),
            };
        }
        Ok(Value::None)
    }

    /// The elements that pass, mapped, as a new list.
    #[inline]
    fn collect(&self, ev: &mut Eval<'_>, l: &mut [Value]) -> R<List> {
        let mut out = List::new();
        let elements = out.make_mut();
        self.run(ev, l, |v| {
            elements.push(v.clone());
            Ok(())
        })?;
        Ok(out)
    }

    #[inline]
    fn run(
        &self,
        ev: &mut Eval<'_>,
        l: &mut [Value],
        mut visit: impl FnMut(&Value) -> R<()>,
    ) -> R<()> {
        let items = self.source.items(ev, l)?;
        ev.visit(items.len(), self.source_span)?;
        if let Some(m) = &self.matching {
            let state = ev.state;
            // Only when every element can be compared here: otherwise the general path fails
            // where it would.
            if items.iter().all(|item| m.part(state, item).is_some()) {
                let target = m.target(l);
                for item in items.iter() {
                    if m.part(state, item)
                        .is_some_and(|v| (*v == *target) == m.equal)
                    {
                        visit(item)?;
                    }
                }
                return Ok(());
            }
        }
        if let Some(ff) = &self.fields {
            // Which pass, found first: they stand only if every element can be decided here
            // (otherwise the general path fails where it would).
            let state = ev.state;
            let decided: Option<u64> = if items.len() <= 64 {
                ff.mask(state, l, &items)
            } else {
                items
                    .iter()
                    .try_for_each(|item| ff.passes(state, l, item).map(|_| ()))
                    .map(|()| u64::MAX)
            };
            if let Some(mask) = decided {
                for (k, item) in items.iter().enumerate() {
                    let pass = if items.len() <= 64 {
                        mask & (1 << k) != 0
                    } else {
                        ff.passes(state, l, item) == Some(true)
                    };
                    if pass {
                        visit(item)?;
                    }
                }
                return Ok(());
            }
        }
        if let Some(m) = &self.mapped {
            // Which pass, then each one's field read; they stand only if every element that
            // passes is an instance of the map's kind.
            let state = ev.state;
            let decided = match &m.filter {
                Some(f) => f.mask(state, l, &items),
                // Without a filter every element passes.
                None => match items.len() {
                    64 => Some(u64::MAX),
                    n if n < 64 => Some((1 << n) - 1),
                    _ => None,
                },
            };
            if let Some(mask) = decided {
                let passing = || {
                    items
                        .iter()
                        .enumerate()
                        .filter(move |(k, _)| mask & (1 << k) != 0)
                };
                let rows: Option<u64> = passing().try_fold(0, |n, (_, item)| match item {
                    Value::Entity(x) if x.kind().index() == m.kind => Some(n + 1),
                    _ => None,
                });
                if let (Some(table), Some(_)) = (state.entities.get(m.kind), rows) {
                    for (_, item) in passing() {
                        if let Value::Entity(x) = item {
                            visit(table.get(x.index() as usize, m.field))?;
                        }
                    }
                    return Ok(());
                }
            }
        }
        for item in items.iter() {
            l[self.slot].put(item.clone());
            if let Some(f) = &self.filter {
                if !f(ev, l)? {
                    continue;
                }
            }
            match &self.map {
                Some(m) => visit(&m(ev, l)?)?,
                None => visit(item)?,
            }
        }
        Ok(())
    }
}

/// `count(xs)`, `sum(xs)`, `min(xs)` or `max(xs)` of one list, streamed: a comprehension's
/// elements are visited without building it.
struct Fold {
    b: Builtin,
    span: Span,
    each: Option<Each>,
    whole: Option<Source>,
}

impl Fold {
    fn new(b: Builtin, arg: &Expr, span: Span) -> Fold {
        match &arg.kind {
            K::Query {
                kind: QueryKind::List,
                slot,
                source,
                filter,
                map,
                ..
            } => Fold {
                b,
                span,
                // A count reads no element's mapped value.
                each: Some(Each::new(
                    *slot,
                    source,
                    filter.as_deref(),
                    if b == Builtin::Count {
                        None
                    } else {
                        map.as_deref()
                    },
                )),
                whole: None,
            },
            _ => Fold {
                b,
                span,
                each: None,
                whole: Some(Source::new(arg)),
            },
        }
    }

    /// The elements folded.
    #[inline]
    fn run(&self, ev: &mut Eval<'_>, l: &mut [Value]) -> R<NumberFold> {
        let mut fold = NumberFold::new(self.b, self.span);
        if let Some(each) = &self.each {
            each.run(ev, l, |v| fold.add(v))?;
        } else if let Some(whole) = &self.whole {
            let items = whole.read(ev, l)?;
            if self.b == Builtin::Count {
                // The count of a whole list is its length: no element is looked at.
                fold.counted(items.len());
                return Ok(fold);
            }
            let scanned = crate::engine::eval::scan_work(items.len());
            for v in items.iter() {
                fold.add(v)?;
            }
            ev.spend(scanned);
        }
        Ok(fold)
    }
}
