//! Evaluation of expressions and texts against a state. Pure: no randomness, no writes but to
//! the local slots a query binds.

use super::error::RuntimeError;
use super::state::State;
use crate::diag::Span;
use crate::ir::{self, BinOp, Builtin, ExprKind as K, Program, QueryKind, UnOp, Value};
use std::borrow::Cow;

/// Deepest nesting of function calls before a runaway recursion is stopped.
pub const MAX_CALL_DEPTH: usize = 200;
/// Longest list a range may build.
pub const MAX_LIST: i64 = 100_000;

/// What an expression reads: the program, the state and the current frame's locals.
pub struct Eval<'a> {
    /// The program.
    pub program: &'a Program,
    /// The state read.
    pub state: &'a State,
    depth: usize,
}

type R<T> = Result<T, RuntimeError>;

fn err(code: &'static str, msg: impl Into<String>, span: Span, help: &str) -> RuntimeError {
    RuntimeError::new(code, msg, span, help)
}

impl<'a> Eval<'a> {
    /// An evaluator over a state.
    pub fn new(program: &'a Program, state: &'a State) -> Eval<'a> {
        Eval {
            program,
            state,
            depth: 0,
        }
    }

    /// Evaluates an expression.
    pub fn expr(&mut self, e: &ir::Expr, locals: &mut [Value]) -> R<Value> {
        Ok(match &e.kind {
            K::Const(v) => v.clone(),
            K::Local(s) => locals[*s as usize].clone(),
            K::Global(g) => self.state.globals[g.index()].clone(),
            K::PlayerVar(p, v) => {
                let p = self.player(p, locals)?;
                self.state.player_vars[p as usize][v.index()].clone()
            }
            K::Field(x, k, f) => {
                let i = self.entity(x, *k, locals)?;
                self.state.entities[k.index()][i][f.index()].clone()
            }
            K::EnumValues(id) => Value::List(
                (0..self.program.enums[id.index()].values.len() as u16)
                    .map(|i| Value::Enum(*id, i))
                    .collect(),
            ),
            K::Instances(k) => Value::List(
                (0..self.state.entities[k.index()].len() as u32)
                    .map(|i| Value::Entity(*k, i))
                    .collect(),
            ),
            K::Players => Value::List((0..self.state.players).map(Value::Player).collect()),
            K::PlayerCount => Value::Int(self.state.players as i64),
            K::Call(id, args) => {
                let def = &self.program.defs[id.index()];
                let mut frame = vec![Value::None; def.locals.max(args.len())];
                for (i, a) in args.iter().enumerate() {
                    frame[i] = self.expr(a, locals)?;
                }
                if self.depth >= MAX_CALL_DEPTH {
                    return Err(err(
                        "call-depth",
                        format!(
                            "`{}` called itself more than {MAX_CALL_DEPTH} deep",
                            def.name
                        ),
                        e.span,
                        "make sure the recursion reaches a case that does not call again",
                    ));
                }
                self.depth += 1;
                let v = self.expr(&def.body, &mut frame);
                self.depth -= 1;
                v?
            }
            K::Builtin(Builtin::Count, args) if args.len() == 1 => match &args[0].kind {
                // `count(x in xs where c)` counts without building the filtered list.
                K::Query {
                    kind: QueryKind::List,
                    slot,
                    source,
                    filter: Some(filter),
                    ..
                } => {
                    let items = self.list_ref(source, locals)?;
                    let mut n = 0;
                    for item in items.iter() {
                        locals[*slot as usize] = item.clone();
                        if self.bool(filter, locals)? {
                            n += 1;
                        }
                    }
                    Value::Int(n)
                }
                _ => Value::Int(self.list_ref(&args[0], locals)?.len() as i64),
            },
            K::Builtin(b, args) => {
                let mut vs = args
                    .iter()
                    .map(|a| self.expr(a, locals))
                    .collect::<R<Vec<_>>>()?;
                if vs.len() == 1 {
                    self.builtin(*b, vs.pop().expect("one argument"), e.span)?
                } else {
                    self.builtin_n(*b, vs, e.span)?
                }
            }
            K::Binary(op, a, b) => self.binary(*op, a, b, e.span, locals)?,
            K::Unary(op, x) => {
                let v = self.expr(x, locals)?;
                match (op, v) {
                    (UnOp::Not, Value::Bool(b)) => Value::Bool(!b),
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
            K::List(items) => Value::List(
                items
                    .iter()
                    .map(|x| self.expr(x, locals))
                    .collect::<R<_>>()?,
            ),
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
                match entries.iter().find(|(lo, hi, _)| *lo <= n && n <= *hi) {
                    Some((_, _, x)) => self.expr(x, locals)?,
                    None => {
                        return Err(err(
                            "uncovered-player-count",
                            format!("no value for {n} players"),
                            e.span,
                            "add an entry for this player count",
                        ))
                    }
                }
            }
        })
    }

    /// Evaluates a condition.
    pub fn bool(&mut self, e: &ir::Expr, locals: &mut [Value]) -> R<bool> {
        match self.expr(e, locals)? {
            Value::Bool(b) => Ok(b),
            v => Err(self.wrong(&v, "true or false", e.span)),
        }
    }

    /// Evaluates a whole number.
    pub fn int(&mut self, e: &ir::Expr, locals: &mut [Value]) -> R<i64> {
        match self.expr(e, locals)? {
            Value::Int(n) => Ok(n),
            v => Err(self.wrong(&v, "a number", e.span)),
        }
    }

    /// Evaluates a player.
    pub fn player(&mut self, e: &ir::Expr, locals: &mut [Value]) -> R<u8> {
        match self.expr(e, locals)? {
            Value::Player(p) => Ok(p),
            Value::None => Err(err(
                "no-value",
                "this is `none`, not a player",
                e.span,
                "check for `none` with `if x != none` before using it",
            )),
            v => Err(self.wrong(&v, "a player", e.span)),
        }
    }

    /// A list, borrowed from the state when the expression names a variable or field (the
    /// common case in queries and `in`), so that reading it copies nothing.
    fn list_ref(&mut self, e: &ir::Expr, locals: &mut [Value]) -> R<Cow<'a, [Value]>> {
        let state: &'a State = self.state;
        let stored = match &e.kind {
            K::Global(g) => Some(&state.globals[g.index()]),
            K::PlayerVar(p, v) => {
                let p = self.player(p, locals)?;
                Some(&state.player_vars[p as usize][v.index()])
            }
            K::Field(x, k, f) => {
                let i = self.entity(x, *k, locals)?;
                Some(&state.entities[k.index()][i][f.index()])
            }
            _ => None,
        };
        match stored {
            Some(Value::List(xs)) => Ok(Cow::Borrowed(xs.as_slice())),
            Some(v) => Err(self.wrong(v, "a list", e.span)),
            None => self.list(e, locals).map(Cow::Owned),
        }
    }

    /// Evaluates a list.
    pub fn list(&mut self, e: &ir::Expr, locals: &mut [Value]) -> R<Vec<Value>> {
        match self.expr(e, locals)? {
            Value::List(v) => Ok(v),
            v => Err(self.wrong(&v, "a list", e.span)),
        }
    }

    fn entity(&mut self, e: &ir::Expr, k: ir::KindId, locals: &mut [Value]) -> R<usize> {
        match self.expr(e, locals)? {
            Value::Entity(kk, i) if kk == k => Ok(i as usize),
            Value::None => Err(err(
                "no-value",
                format!(
                    "this is `none`, not a `{}`",
                    self.program.kinds[k.index()].name
                ),
                e.span,
                "check for `none` with `if x != none` before using its fields",
            )),
            v => Err(self.wrong(&v, "an instance", e.span)),
        }
    }

    fn wrong(&self, v: &Value, want: &str, span: Span) -> RuntimeError {
        if *v == Value::None {
            return err(
                "no-value",
                format!("expected {want}, found `none`"),
                span,
                "`first` and `last` of an empty list, and unset players and instances, are `none`; check with `count(xs) > 0` or `x != none` first",
            );
        }
        err(
            "type-mismatch",
            format!(
                "expected {want}, found {}",
                super::show(self.program, self.state, v)
            ),
            span,
            "this is a bug in the checker; please report it with the rules file",
        )
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
            BinOp::And => return Ok(Value::Bool(self.bool(a, locals)? && self.bool(b, locals)?)),
            BinOp::Or => return Ok(Value::Bool(self.bool(a, locals)? || self.bool(b, locals)?)),
            // Membership reads the list where it lies.
            BinOp::In | BinOp::NotIn => {
                let x = self.expr(a, locals)?;
                let found = self.list_ref(b, locals)?.contains(&x);
                return Ok(Value::Bool(found == (op == BinOp::In)));
            }
            _ => {}
        }
        let x = self.expr(a, locals)?;
        let y = self.expr(b, locals)?;
        Ok(match (op, x, y) {
            (BinOp::Eq, x, y) => Value::Bool(x == y),
            (BinOp::Ne, x, y) => Value::Bool(x != y),
            (BinOp::Add, Value::List(mut xs), Value::List(ys)) => {
                check_len(xs.len() + ys.len(), span)?;
                xs.extend(ys);
                Value::List(xs)
            }
            (op, Value::Int(x), Value::Int(y)) => match op {
                BinOp::Lt => Value::Bool(x < y),
                BinOp::Le => Value::Bool(x <= y),
                BinOp::Gt => Value::Bool(x > y),
                BinOp::Ge => Value::Bool(x >= y),
                BinOp::Add => Value::Int(x.checked_add(y).ok_or_else(|| overflow(span))?),
                BinOp::Sub => Value::Int(x.checked_sub(y).ok_or_else(|| overflow(span))?),
                BinOp::Mul => Value::Int(x.checked_mul(y).ok_or_else(|| overflow(span))?),
                BinOp::Div | BinOp::Mod if y == 0 => {
                    return Err(err(
                        "division-by-zero",
                        format!("{x} {} 0", op.symbol()),
                        span,
                        "guard the division with `if`, such as `if n > 0 then total / n else 0`",
                    ))
                }
                BinOp::Div => Value::Int(x.checked_div_euclid(y).ok_or_else(|| overflow(span))?),
                BinOp::Mod => Value::Int(x.checked_rem_euclid(y).ok_or_else(|| overflow(span))?),
                BinOp::Range => {
                    if y.checked_sub(x).is_none_or(|n| n > MAX_LIST) {
                        return Err(err(
                            "list-too-long",
                            format!("the range {x}..{y} is too long"),
                            span,
                            "keep ranges under 100000 numbers",
                        ));
                    }
                    Value::List((x..=y).map(Value::Int).collect())
                }
                _ => {
                    return Err(err(
                        "type-mismatch",
                        "bad operands",
                        span,
                        "this is a bug in the checker",
                    ))
                }
            },
            (_, x, _) => return Err(self.wrong(&x, "operands that fit the operator", span)),
        })
    }

    fn builtin(&mut self, b: Builtin, v: Value, span: Span) -> R<Value> {
        let players = self.state.players;
        let ints = |v: &Value| -> Vec<i64> {
            match v {
                Value::List(xs) => xs
                    .iter()
                    .filter_map(|x| {
                        if let Value::Int(n) = x {
                            Some(*n)
                        } else {
                            None
                        }
                    })
                    .collect(),
                _ => Vec::new(),
            }
        };
        Ok(match (b, v) {
            (Builtin::Count, Value::List(xs)) => Value::Int(xs.len() as i64),
            (Builtin::Sum, v) => {
                let mut total: i64 = 0;
                for n in ints(&v) {
                    total = total.checked_add(n).ok_or_else(|| overflow(span))?;
                }
                Value::Int(total)
            }
            (Builtin::Min, v) => Value::Int(ints(&v).into_iter().min().unwrap_or(0)),
            (Builtin::Max, v) => Value::Int(ints(&v).into_iter().max().unwrap_or(0)),
            (Builtin::Duplicates, Value::List(xs)) => {
                let dup: Vec<Value> = xs
                    .iter()
                    .filter(|x| xs.iter().filter(|y| y == x).count() > 1)
                    .cloned()
                    .collect();
                Value::List(dup)
            }
            (Builtin::Others, Value::Player(p)) => Value::List(
                (1..players)
                    .map(|i| Value::Player((p + i) % players))
                    .collect(),
            ),
            (Builtin::SeatsFrom, Value::Player(p)) => Value::List(
                (0..players)
                    .map(|i| Value::Player((p + i) % players))
                    .collect(),
            ),
            (Builtin::Next, Value::Player(p)) => Value::Player((p + 1) % players),
            (Builtin::Prev, Value::Player(p)) => Value::Player((p + players - 1) % players),
            (Builtin::Seat, Value::Player(p)) => Value::Int(p as i64 + 1),
            (Builtin::Reverse, Value::List(mut xs)) => {
                xs.reverse();
                Value::List(xs)
            }
            (Builtin::Sort, Value::List(mut xs)) => {
                xs.sort();
                Value::List(xs)
            }
            (Builtin::Distinct, Value::List(xs)) => {
                let mut out: Vec<Value> = Vec::new();
                for x in xs {
                    if !out.contains(&x) {
                        out.push(x);
                    }
                }
                Value::List(out)
            }
            (Builtin::Abs, Value::Int(n)) => {
                Value::Int(n.checked_abs().ok_or_else(|| overflow(span))?)
            }
            (Builtin::Subsets, Value::List(xs)) => {
                if xs.len() > 12 {
                    return Err(err(
                        "list-too-long",
                        format!("{} elements have too many subsets to list", xs.len()),
                        span,
                        "take subsets of at most 12 elements, or choose one element at a time",
                    ));
                }
                let n = xs.len();
                let mut out = Vec::with_capacity(1 << n);
                for mask in 0u32..(1 << n) {
                    out.push(Value::List(
                        (0..n)
                            .filter(|i| mask & (1 << i) != 0)
                            .map(|i| xs[i].clone())
                            .collect(),
                    ));
                }
                // Smaller subsets first, so that "commit nothing" leads the list.
                out.sort_by_key(|v| if let Value::List(s) = v { s.len() } else { 0 });
                Value::List(out)
            }
            (Builtin::AtSeat, Value::Int(i)) => {
                if i < 1 || i > players as i64 {
                    return Err(err(
                        "out-of-range",
                        format!("there is no seat {i} with {players} players"),
                        span,
                        "seats count from 1",
                    ));
                }
                Value::Player((i - 1) as u8)
            }
            (Builtin::First, Value::List(xs)) => xs.into_iter().next().unwrap_or(Value::None),
            (Builtin::Last, Value::List(xs)) => xs.into_iter().last().unwrap_or(Value::None),
            (_, Value::None) => {
                return Err(err(
                    "no-value",
                    "this is `none`",
                    span,
                    "check for `none` with `if x != none` first",
                ))
            }
            (_, v) => return Err(self.wrong(&v, "a fitting argument", span)),
        })
    }

    fn builtin_n(&mut self, b: Builtin, args: Vec<Value>, span: Span) -> R<Value> {
        let mut it = args.into_iter();
        let (a, c) = (
            it.next().unwrap_or(Value::None),
            it.next().unwrap_or(Value::None),
        );
        Ok(match (b, a, c) {
            (Builtin::Nth, Value::List(xs), Value::Int(i)) => {
                if i < 1 || i as usize > xs.len() {
                    return Err(err(
                        "out-of-range",
                        format!("nth(…, {i}) of a list of {}", xs.len()),
                        span,
                        "positions count from 1 to the length of the list; check `count(...)` first",
                    ));
                }
                xs[i as usize - 1].clone()
            }
            (Builtin::Take, Value::List(xs), Value::Int(n)) => {
                Value::List(xs.into_iter().take(n.max(0) as usize).collect())
            }
            (Builtin::Drop, Value::List(xs), Value::Int(n)) => {
                Value::List(xs.into_iter().skip(n.max(0) as usize).collect())
            }
            (Builtin::Position, Value::List(xs), x) => {
                Value::Int(xs.iter().position(|y| *y == x).map_or(0, |i| i as i64 + 1))
            }
            (Builtin::Clamp, Value::Int(x), Value::Int(lo)) => {
                let hi = match it.next() {
                    Some(Value::Int(h)) => h,
                    _ => {
                        return Err(err(
                            "type-mismatch",
                            "clamp needs three numbers",
                            span,
                            "write clamp(x, lo, hi)",
                        ))
                    }
                };
                Value::Int(x.max(lo).min(hi.max(lo)))
            }
            (_, Value::None, _) => {
                return Err(err(
                    "no-value",
                    "this is `none`",
                    span,
                    "check for `none` with `if x != none` first",
                ))
            }
            (_, v, _) => return Err(self.wrong(&v, "fitting arguments", span)),
        })
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
        let items = self.list_ref(source, locals)?;
        let mut out = Vec::new();
        let mut ranked: Vec<(Vec<i64>, Value)> = Vec::new();
        for item in items.iter() {
            locals[slot as usize] = item.clone();
            let pass = match filter {
                Some(f) => self.bool(f, locals)?,
                None => true,
            };
            match kind {
                QueryKind::Any if pass => return Ok(Value::Bool(true)),
                QueryKind::All if !pass => return Ok(Value::Bool(false)),
                QueryKind::Any | QueryKind::All => {}
                _ if !pass => {}
                QueryKind::List => out.push(match map {
                    Some(m) => self.expr(m, locals)?,
                    None => item.clone(),
                }),
                QueryKind::Top | QueryKind::Bottom | QueryKind::Sorted => {
                    let k = keys
                        .iter()
                        .map(|k| self.int(k, locals))
                        .collect::<R<Vec<_>>>()?;
                    ranked.push((k, item.clone()));
                }
            }
        }
        Ok(match kind {
            QueryKind::Any => Value::Bool(false),
            QueryKind::All => Value::Bool(true),
            QueryKind::List => Value::List(out),
            QueryKind::Sorted => {
                ranked.sort_by(|a, b| a.0.cmp(&b.0));
                Value::List(ranked.into_iter().map(|(_, v)| v).collect())
            }
            QueryKind::Top | QueryKind::Bottom => {
                let best = if kind == QueryKind::Top {
                    ranked.iter().map(|(k, _)| k).max().cloned()
                } else {
                    ranked.iter().map(|(k, _)| k).min().cloned()
                };
                Value::List(
                    ranked
                        .into_iter()
                        .filter(|(k, _)| Some(k) == best.as_ref())
                        .map(|(_, v)| v)
                        .collect(),
                )
            }
        })
    }

    /// Renders a text with its interpolations.
    pub fn text(&mut self, t: &ir::Text, locals: &mut [Value]) -> R<String> {
        let mut out = String::new();
        for p in &t.parts {
            match p {
                ir::TextPart::Lit(s) => out.push_str(s),
                ir::TextPart::Expr(e) => {
                    let v = self.expr(e, locals)?;
                    out.push_str(&super::show(self.program, self.state, &v));
                }
            }
        }
        Ok(out)
    }
}

/// Lists may not grow past [`MAX_LIST`]: a rule doubling a list in a loop stops with an error.
pub(super) fn check_len(len: usize, span: Span) -> R<()> {
    if len as i64 > MAX_LIST {
        return Err(err(
            "list-too-long",
            format!("a list of {len} items is too long"),
            span,
            "keep lists under 100000 items",
        ));
    }
    Ok(())
}

fn overflow(span: Span) -> RuntimeError {
    err(
        "overflow",
        "a number grew too large",
        span,
        "keep numbers within ±9 quintillion",
    )
}
