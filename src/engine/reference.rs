//! The reference walker: evaluates an expression by walking its tree, node by node.
//!
//! Only tests build it (`cfg(test)`, or the `reference` feature the crate's own
//! dev-dependency turns on for its integration tests); `cargo build` leaves it out, so the
//! product runs every expression compiled (`engine::compile`). It is the second, independent
//! implementation `tests/compiled.rs` plays every rules file with: a program whose roots are
//! not numbered (`ir::roots::clear_roots`) is walked here instead of compiled on the spot.
//! It shares with the closures only the meaning of nodes on values already evaluated
//! (`engine::nodes`, `Eval::combine`, `Eval::builtin`), and charges work where the closures
//! do: a unit a call and a unit a list element a query visits, with the same checks.

use super::eval::{
    overflow, ranked, scan_work, take_call_frame, Eval, MAX_CALL_DEPTH, R, SMALL_FRAME,
};
use crate::diag::Span;
use crate::ir::{self, BinOp, Builtin, ExprKind as K, List, QueryKind, UnOp, Value};

impl Eval<'_> {
    /// Evaluates an expression by walking its tree.
    pub(super) fn walk(&mut self, e: &ir::Expr, locals: &mut [Value]) -> R<Value> {
        Ok(match &e.kind {
            K::Const(v) => v.clone(),
            K::Local(s) => locals[*s as usize].clone(),
            K::Global(g) => self.state.globals[g.index()].clone(),
            K::PlayerVar(p, v) => {
                let p = self.player(p, locals)?;
                self.state.player_vars.get(p as usize, v.index()).clone()
            }
            K::Field(x, k, f) => {
                let i = self.entity(x, *k, locals)?;
                self.state.entities[k.index()].get(i, f.index()).clone()
            }
            K::EnumValues(id) => Value::List(self.state.domains.enum_values[id.index()].clone()),
            K::Instances(k) => Value::List(self.state.domains.instances[k.index()].clone()),
            K::Players => Value::List(self.state.players_in().clone()),
            K::AllPlayers => Value::List(self.state.domains.seats.clone()),
            K::PlayerCount => Value::Int(self.state.players as i64),
            K::TableCell { table, column, row } => {
                let i = self.int(row, locals)?;
                super::nodes::table_cell(self.program, *table, *column, i, e.span)?
            }
            K::Call(id, args) => {
                self.spend(1);
                self.check_work(e.span)?;
                let def = &self.program.defs[id.index()];
                if self.depth >= MAX_CALL_DEPTH {
                    return Err(self.too_deep(*id, e.span));
                }
                let size = def.locals.max(args.len());
                if size <= SMALL_FRAME {
                    // Most defs need a few slots: they live on the stack, not in a pooled vector.
                    let mut frame = [const { Value::None }; SMALL_FRAME];
                    self.call(*id, args, locals, &mut frame[..size])?
                } else {
                    let mut frame = take_call_frame(size);
                    let v = self.call(*id, args, locals, &mut frame);
                    super::spare::give_values(frame);
                    v?
                }
            }
            K::Builtin(b, args) => self.call_builtin(*b, args, e.span, locals)?,
            K::Binary(op, a, b) => self.binary(*op, a, b, e.span, locals)?,
            K::Unary(op, x) => {
                let v = self.expr(x, locals)?;
                match (op, v) {
                    (UnOp::Not, Value::Bool(b)) => Value::bool(!b.get()),
                    (UnOp::Neg, Value::Int(n)) => {
                        Value::Int(n.checked_neg().ok_or_else(|| overflow(e.span))?)
                    }
                    (_, v) => return Err(self.wrong(&v, "a number or a truth value", x.span)),
                }
            }
            K::If(c, a, b) => {
                if self.bool(c, locals)? {
                    self.expr(a, locals)?
                } else {
                    self.expr(b, locals)?
                }
            }
            K::List(items) => {
                let mut out = List::new();
                let elements = out.make_mut();
                for x in items {
                    elements.push(self.expr(x, locals)?);
                }
                Value::List(out)
            }
            K::Query {
                kind,
                slot,
                source,
                filter,
                map,
                keys,
            } => self.query(
                *kind,
                *slot,
                source,
                filter.as_deref(),
                map.as_deref(),
                keys,
                locals,
            )?,
            K::ByPlayers(entries) => {
                let n = self.state.players as i64;
                let at = super::nodes::player_count_entry(
                    entries.iter().map(|(lo, hi, _)| (*lo, *hi)),
                    n,
                    e.span,
                )?;
                self.expr(&entries[at].2, locals)?
            }
        })
    }

    /// Calls a def with its frame: the arguments in the first slots, then the body.
    #[inline(never)]
    fn call(
        &mut self,
        id: ir::DefId,
        args: &[ir::Expr],
        locals: &mut [Value],
        frame: &mut [Value],
    ) -> R<Value> {
        for (slot, a) in frame.iter_mut().zip(args) {
            slot.put(self.expr(a, locals)?);
        }
        self.enter(id, frame, args.len())
    }

    fn binary(
        &mut self,
        op: BinOp,
        a: &ir::Expr,
        b: &ir::Expr,
        span: Span,
        locals: &mut [Value],
    ) -> R<Value> {
        // `and` and `or` do not evaluate their right side when the left decides.
        match op {
            BinOp::And => return Ok(Value::bool(self.bool(a, locals)? && self.bool(b, locals)?)),
            BinOp::Or => return Ok(Value::bool(self.bool(a, locals)? || self.bool(b, locals)?)),
            // Membership reads the list where it lies.
            BinOp::In | BinOp::NotIn => {
                let x = self.expr(a, locals)?;
                let items = self.items(b, locals)?;
                self.spend(scan_work(items.len()));
                let found = items.contains(&x);
                return Ok(Value::bool(found == (op == BinOp::In)));
            }
            _ => {}
        }
        if let BinOp::Eq | BinOp::Ne = op {
            // Comparing with a local or a constant reads it in place.
            let same = match (&a.kind, &b.kind) {
                (K::Local(s), K::Const(c)) | (K::Const(c), K::Local(s)) => {
                    Some(locals[*s as usize] == *c)
                }
                (K::Local(s), K::Local(t)) => Some(locals[*s as usize] == locals[*t as usize]),
                (_, K::Const(c)) => Some(self.expr(a, locals)? == *c),
                (K::Local(s), _) => {
                    let y = self.expr(b, locals)?;
                    Some(locals[*s as usize] == y)
                }
                _ => None,
            };
            if let Some(same) = same {
                return Ok(Value::bool(same == (op == BinOp::Eq)));
            }
        }
        let x = self.expr(a, locals)?;
        let y = self.expr(b, locals)?;
        self.combine(op, x, y, span)
    }

    /// A built-in call. Counting, summing and extremes of a comprehension visit its elements
    /// without building the list; other arguments are evaluated one by one, without a vector.
    fn call_builtin(
        &mut self,
        b: Builtin,
        args: &[ir::Expr],
        span: Span,
        locals: &mut [Value],
    ) -> R<Value> {
        if let (Builtin::Count | Builtin::Sum | Builtin::Min | Builtin::Max, [arg]) = (b, args) {
            return self.fold_numbers(b, arg, span, locals);
        }
        // `first` and `last` of a comprehension look from their end and stop at the first
        // element that passes, as `any` does: the list is never built.
        if let (Builtin::First | Builtin::Last, [arg, default @ ..]) = (b, args) {
            if let (
                K::Query {
                    kind: QueryKind::List,
                    slot,
                    source,
                    filter,
                    map,
                    ..
                },
                0 | 1,
            ) = (&arg.kind, default.len())
            {
                let from_end = b == Builtin::Last;
                let found = self.find(
                    from_end,
                    *slot,
                    source,
                    filter.as_deref(),
                    map.as_deref(),
                    locals,
                )?;
                return match (found, default) {
                    // As with a list: an empty one, or a `none` found, gives the default.
                    (Value::None, [d]) => self.expr(d, locals),
                    (v, _) => Ok(v),
                };
            }
        }
        // `min(xs, d)`, `first(xs, d)`: `d` when the list is empty.
        if let (true, [arg, default]) = (b.takes_default(), args) {
            let v = match b {
                Builtin::Min | Builtin::Max => self.fold_numbers(b, arg, span, locals)?,
                _ => match self.expr(arg, locals)? {
                    Value::List(xs) if xs.is_empty() => Value::None,
                    xs => self.builtin(b, xs, span)?,
                },
            };
            return match v {
                Value::None => self.expr(default, locals),
                v => Ok(v),
            };
        }
        match args {
            [a] => {
                let v = self.expr(a, locals)?;
                self.builtin(b, v, span)
            }
            [a, c] => {
                let x = self.expr(a, locals)?;
                let y = self.expr(c, locals)?;
                self.builtin2(b, x, y, Value::None, span)
            }
            [a, c, d] => {
                let x = self.expr(a, locals)?;
                let y = self.expr(c, locals)?;
                let z = self.expr(d, locals)?;
                self.builtin2(b, x, y, z, span)
            }
            _ => Err(super::nodes::wrong_arity(span)),
        }
    }

    /// `count`, `sum`, `min` and `max` of one list argument, streamed.
    fn fold_numbers(
        &mut self,
        b: Builtin,
        arg: &ir::Expr,
        span: Span,
        locals: &mut [Value],
    ) -> R<Value> {
        let mut fold = super::nodes::NumberFold::new(b, span);
        match &arg.kind {
            K::Query {
                kind: QueryKind::List,
                slot,
                source,
                filter,
                map,
                ..
            } => {
                let mapped = if b == Builtin::Count {
                    None
                } else {
                    map.as_deref()
                };
                self.each(
                    *slot,
                    source,
                    filter.as_deref(),
                    mapped,
                    locals,
                    |_, v, _| fold.add(v),
                )?;
            }
            _ => {
                let items = self.items(arg, locals)?;
                if b == Builtin::Count {
                    // The count of a whole list is its length: no element is looked at.
                    return Ok(Value::Int(items.len() as i64));
                }
                let scanned = scan_work(items.len());
                for v in items.iter() {
                    fold.add(v)?;
                }
                self.spend(scanned);
            }
        }
        Ok(fold.value())
    }

    /// The first element of `source` (the last, `from_end`) that passes `filter`, mapped by
    /// `map` if given; `none` if none passes. Elements past it are not visited.
    fn find(
        &mut self,
        from_end: bool,
        slot: ir::Slot,
        source: &ir::Expr,
        filter: Option<&ir::Expr>,
        map: Option<&ir::Expr>,
        locals: &mut [Value],
    ) -> R<Value> {
        let items = self.items(source, locals)?;
        let n = items.len();
        self.visit(n, source.span)?;
        for k in 0..n {
            let item = &items[if from_end { n - 1 - k } else { k }];
            locals[slot as usize].put(item.clone());
            if let Some(f) = filter {
                if !self.bool(f, locals)? {
                    continue;
                }
            }
            return match map {
                Some(m) => self.expr(m, locals),
                None => Ok(item.clone()),
            };
        }
        Ok(Value::None)
    }

    #[allow(clippy::too_many_arguments)]
    fn query(
        &mut self,
        kind: QueryKind,
        slot: ir::Slot,
        source: &ir::Expr,
        filter: Option<&ir::Expr>,
        map: Option<&ir::Expr>,
        keys: &[ir::Expr],
        locals: &mut [Value],
    ) -> R<Value> {
        match kind {
            QueryKind::Any | QueryKind::All => {
                let want = kind == QueryKind::Any;
                let mut found = !want;
                let items = self.items(source, locals)?;
                self.visit(items.len(), source.span)?;
                for item in items.iter() {
                    locals[slot as usize].put(item.clone());
                    let pass = match filter {
                        Some(f) => self.bool(f, locals)?,
                        None => true,
                    };
                    if pass == want {
                        found = want;
                        break;
                    }
                }
                Ok(Value::bool(found))
            }
            QueryKind::List => {
                let mut out = List::new();
                let elements = out.make_mut();
                self.each(slot, source, filter, map, locals, |_, v, _| {
                    elements.push(v.clone());
                    Ok(())
                })?;
                Ok(Value::List(out))
            }
            QueryKind::Top | QueryKind::Bottom => {
                let mut passed = List::new();
                self.each(slot, source, filter, None, locals, |_, item, _| {
                    passed.push(item.clone());
                    Ok(())
                })?;
                ranked(&passed, keys.len(), kind == QueryKind::Top, |n, item| {
                    locals[slot as usize].put(item.clone());
                    self.int(&keys[n], locals)
                })
                .map(Value::List)
            }
            QueryKind::Sorted => {
                // Keys of every element that passes, flat, `keys.len()` to an element.
                let width = keys.len();
                let mut ranked_keys = super::spare::values();
                let mut ranked = List::new();
                let visited = self.each(slot, source, filter, None, locals, |ev, item, locals| {
                    for k in keys {
                        ranked_keys.push(Value::Int(ev.int(k, locals)?));
                    }
                    ranked.push(item.clone());
                    Ok(())
                });
                let result = visited.map(|()| {
                    Value::List(super::nodes::sorted_by_keys(&ranked, &ranked_keys, width))
                });
                super::spare::give_values(ranked_keys);
                result
            }
        }
    }
}
