//! Filters that test only the fields of the instance a query looks at (`not a.in_play`,
//! `a.in_play and (me == a.leader or me in a.members)`, `c.bank > 0`, `x.marker != x.card`,
//! `x.owner == p.team`, `count(x.cards) > count(y.cards)`), run over a whole list in one loop (a
//! query's, or a `for`'s): no closure called and no element bound to its slot. Its work is the
//! loop's, charged by the caller before it (a node costs nothing), so it spends nothing itself.
//!
//! It runs only to find out what the general path would find, changing nothing. A value it
//! cannot read as the general path reads it (an element that is no instance, a truth field
//! that is `none`, a number that is none) ends it: the general path then runs and fails as it
//! fails.

use crate::engine::{State, Table};
use crate::ir::{BinOp, Builtin, Expr, ExprKind as K, KindId, Slot, UnOp, Value};

/// Runs `$body` with `$decide`, a closure that decides the element in one row of the table as
/// [`FieldFilter::decide`] does: for a filter of one of the commonest tests alone, a closure of
/// that test, so that a loop over a list has no dispatch on the kind of test in it (and the
/// loop is written once for each).
macro_rules! with_decide {
    ($ff:expr, $l:expr, $table:expr, $seats:expr, |$decide:ident| $body:expr) => {{
        let (ff, l, table, seats): (&FieldFilter, &[Value], &Table, &Table) =
            ($ff, $l, $table, $seats);
        match ff.single() {
            Some((FieldTest::Truth(f), flip)) => {
                let $decide = |i: usize| match table.get(i, *f) {
                    Value::Bool(b) => Some(b.get() != flip),
                    _ => None,
                };
                $body
            }
            // Equality is symmetric: a local compared with a field either way round.
            Some((
                FieldTest::FieldLocal {
                    field,
                    local,
                    equal,
                }
                | FieldTest::LocalField {
                    field,
                    local,
                    equal,
                },
                flip,
            )) => {
                let $decide =
                    |i: usize| Some(((*table.get(i, *field) == l[*local]) == *equal) != flip);
                $body
            }
            Some((
                FieldTest::FieldConst {
                    field,
                    value,
                    equal,
                },
                flip,
            )) => {
                let $decide =
                    |i: usize| Some(((*table.get(i, *field) == *value) == *equal) != flip);
                $body
            }
            // A filter that starts with a truth field (`a.in_play and ...`): that first test
            // read in place, the rest (if that does not decide) by the branch program.
            _ => match ff.first_truth() {
                Some((f, then, otherwise)) => {
                    let $decide = |i: usize| match table.get(i, f) {
                        Value::Bool(b) => ff.decide_from(
                            l,
                            (table, seats),
                            i,
                            if b.get() { then } else { otherwise },
                        ),
                        _ => None,
                    };
                    $body
                }
                None => {
                    let $decide = |i: usize| ff.decide(l, table, seats, i);
                    $body
                }
            },
        }
    }};
}

/// A test of the fields of an instance of one kind.
#[derive(Debug)]
enum FieldTest {
    And(Box<FieldTest>, Box<FieldTest>),
    Or(Box<FieldTest>, Box<FieldTest>),
    Not(Box<FieldTest>),
    /// `x.f`, a truth field.
    Truth(usize),
    /// `x.f == y` or `!=`, `y` a local.
    FieldLocal {
        field: usize,
        local: usize,
        equal: bool,
    },
    /// `x.f == c` or `!=`.
    FieldConst {
        field: usize,
        value: Value,
        equal: bool,
    },
    /// `x.f == x.g` or `!=`, two fields of the same instance.
    FieldField {
        field: usize,
        other: usize,
        equal: bool,
    },
    /// `x.f == p.v` or `!=` (either way round), `p.v` a variable of the seat in a local.
    FieldSeat {
        field: usize,
        slot: usize,
        column: usize,
        equal: bool,
    },
    /// `y == x.f` or `!=`, `y` a local.
    LocalField {
        field: usize,
        local: usize,
        equal: bool,
    },
    /// `y in x.f` or `not in`, `y` a local (the list read where it lies).
    LocalIn {
        field: usize,
        local: usize,
        within: bool,
    },
    /// `x.f < n` (or `<=`, `>`, `>=`), `n` a whole number or a local.
    Compare {
        field: usize,
        op: BinOp,
        against: Number,
    },
    /// `count(x.f) < n` (or `<=`, `>`, `>=`, `==`, `!=`), `x.f` a list, `n` a whole number, a
    /// local or `count(y.f)` of a local `y` of the same kind (a count reads its list where it
    /// lies).
    CountCompare {
        field: usize,
        op: BinOp,
        against: Count,
    },
}

/// What the length of a list field is compared with.
#[derive(Debug)]
enum Count {
    Const(i64),
    Local(usize),
    /// The length of field `field` of the instance in a local, of the filter's kind (the
    /// indices narrow, so that this test takes no more room than the others).
    Other {
        local: Slot,
        kind: KindId,
        field: u32,
    },
}

/// What a field is compared with by size.
#[derive(Debug)]
enum Number {
    Const(i64),
    Local(usize),
}

impl Count {
    /// The number a list field's length is compared with, read in frame `l` (and in `table`,
    /// the filter's instances); `None` where the general path must decide.
    #[inline(always)]
    fn get(&self, l: &[Value], table: &Table) -> Option<i64> {
        Some(match self {
            Count::Const(n) => *n,
            Count::Local(t) => match l[*t] {
                Value::Int(n) => n,
                _ => return None,
            },
            Count::Other { local, kind, field } => match (&l[*local as usize], kind) {
                (Value::Entity(x), kind) if x.kind() == *kind => {
                    match table.get(x.index() as usize, *field as usize) {
                        Value::List(ys) => ys.len() as i64,
                        _ => return None,
                    }
                }
                _ => return None,
            },
        })
    }
}

impl Number {
    /// The number a field is compared with, read in frame `l`; `None` where the general path
    /// must decide.
    #[inline(always)]
    fn get(&self, l: &[Value]) -> Option<i64> {
        match self {
            Number::Const(n) => Some(*n),
            Number::Local(t) => match l[*t] {
                Value::Int(n) => Some(n),
                _ => None,
            },
        }
    }
}

/// A filter of the instance bound to a query's slot that reads nothing but its fields, locals
/// and constants.
///
/// It runs as a branch program: its tests of one field in a row, each with where to go when it
/// holds and when not, so that deciding an element is one loop, with no call for each `and`. `a and b` goes on to `b` when `a` holds
/// and answers false when not; `a or b` the other way round; `not a` swaps where `a` goes.
#[derive(Debug)]
pub(crate) struct FieldFilter {
    /// The kind of the instances.
    kind: usize,
    /// The tests; the first is where every element starts.
    steps: Vec<Step>,
}

/// One test of a [`FieldFilter`]'s branch program.
#[derive(Debug)]
struct Step {
    test: FieldTest,
    /// Where to go when the test holds, and when not: another step, or [`TRUE`] or [`FALSE`].
    then: u8,
    otherwise: u8,
}

impl Step {
    /// Where to go from this step for instance `i` of `table`.
    #[inline(always)]
    fn next(&self, l: &[Value], table: &Table, seats: &Table, i: usize) -> Option<u8> {
        Some(if self.test.field(l, table, seats, i)? {
            self.then
        } else {
            self.otherwise
        })
    }
}

/// The branch program's answers, as places to go.
const TRUE: u8 = u8::MAX;
const FALSE: u8 = u8::MAX - 1;

impl FieldFilter {
    /// The filter `e` of the instance in `slot`, if it is made of the tests above.
    pub(super) fn new(e: &Expr, slot: Slot) -> Option<FieldFilter> {
        let mut kind = None;
        let test = test(e, slot, &mut kind)?;
        let mut steps = Vec::new();
        let start = lower(test, TRUE, FALSE, &mut steps)?;
        // The steps were laid out last first: the element starts at the one `lower` gave.
        if usize::from(start) + 1 != steps.len() {
            return None;
        }
        steps.reverse();
        let last = steps.len() as u8 - 1;
        for s in &mut steps {
            for to in [&mut s.then, &mut s.otherwise] {
                if *to < FALSE {
                    *to = last - *to;
                }
            }
        }
        Some(FieldFilter {
            kind: kind?.index(),
            steps,
        })
    }

    /// Whether `item` passes; `None` when the general path must decide (it may fail).
    #[inline]
    pub(crate) fn passes(&self, state: &State, l: &[Value], item: &Value) -> Option<bool> {
        let i = self.index(item)?;
        self.decide(l, &state.entities[self.kind], &state.player_vars, i)
    }

    /// The first of `items` from the `start`th on (counting from the end and walking back when
    /// `from_end`) for which the filter gives `want`: one loop over the list with the table
    /// found once. `None` when the general path must decide.
    pub(crate) fn seek(
        &self,
        state: &State,
        l: &[Value],
        items: &[Value],
        (start, from_end): (usize, bool),
        want: bool,
    ) -> Option<Option<usize>> {
        let tables = (state.entities.get(self.kind)?, &state.player_vars);
        self.seek_in(tables, l, items, (start, from_end), want)
    }

    /// [`FieldFilter::seek`] in the filter's table and the seats' table.
    fn seek_in(
        &self,
        (table, seats): (&Table, &Table),
        l: &[Value],
        items: &[Value],
        (start, from_end): (usize, bool),
        want: bool,
    ) -> Option<Option<usize>> {
        let n = items.len();
        with_decide!(self, l, table, seats, |decide| {
            for k in start..n {
                let at = if from_end { n - 1 - k } else { k };
                if decide(self.index(&items[at])?)? == want {
                    return Some(Some(at));
                }
            }
            Some(None)
        })
    }

    /// Which of `items` (at most 64) pass, as bits; `None` when the general path must decide.
    pub(crate) fn mask(&self, state: &State, l: &[Value], items: &[Value]) -> Option<u64> {
        let tables = (state.entities.get(self.kind)?, &state.player_vars);
        self.mask_in(tables, l, items)
    }

    /// [`FieldFilter::mask`] in the filter's table and the seats' table.
    fn mask_in(
        &self,
        (table, seats): (&Table, &Table),
        l: &[Value],
        items: &[Value],
    ) -> Option<u64> {
        if items.len() > 64 {
            return None;
        }
        with_decide!(self, l, table, seats, |decide| {
            let mut mask = 0u64;
            for (k, item) in items.iter().enumerate() {
                mask |= u64::from(decide(self.index(item)?)?) << k;
            }
            Some(mask)
        })
    }

    /// The test of a filter of one step, and whether its answer is turned round (a `not`):
    /// see [`with_decide`].
    #[inline(always)]
    fn single(&self) -> Option<(&FieldTest, bool)> {
        match self.steps.as_slice() {
            [step] => Some((&step.test, step.then != TRUE)),
            _ => None,
        }
    }

    /// The row of `item` in the filter's table, if it is an instance of its kind.
    #[inline(always)]
    fn index(&self, item: &Value) -> Option<usize> {
        match item {
            Value::Entity(x) if x.kind().index() == self.kind => Some(x.index() as usize),
            _ => None,
        }
    }

    /// [`Self::passes`] of instance `i` of `table`.
    #[inline(always)]
    fn decide(&self, l: &[Value], table: &Table, seats: &Table, i: usize) -> Option<bool> {
        // Most filters are one test (or its `not`): decided without the loop.
        if let [step] = self.steps.as_slice() {
            return Some(step.next(l, table, seats, i)? == TRUE);
        }
        self.run_from(l, (table, seats), i, 0)
    }

    /// [`Self::decide`] of instance `i` from the place `at` in the branch program (a step, or
    /// [`TRUE`] or [`FALSE`]).
    #[inline(always)]
    fn decide_from(
        &self,
        l: &[Value],
        (table, seats): (&Table, &Table),
        i: usize,
        at: u8,
    ) -> Option<bool> {
        match at {
            TRUE => Some(true),
            FALSE => Some(false),
            step => self.run_from(l, (table, seats), i, usize::from(step)),
        }
    }

    /// [`Self::decide_from`] a step.
    #[inline(always)]
    fn run_from(
        &self,
        l: &[Value],
        (table, seats): (&Table, &Table),
        i: usize,
        mut at: usize,
    ) -> Option<bool> {
        loop {
            let step = self.steps.get(at)?;
            match step.next(l, table, seats, i)? {
                TRUE => return Some(true),
                FALSE => return Some(false),
                next => at = usize::from(next),
            }
        }
    }

    /// For a filter of several steps whose first tests a truth field: the field, and where
    /// each answer goes.
    #[inline(always)]
    fn first_truth(&self) -> Option<(usize, u8, u8)> {
        match self.steps.as_slice() {
            [first, _, ..] => match first.test {
                FieldTest::Truth(f) => Some((f, first.then, first.otherwise)),
                _ => None,
            },
            _ => None,
        }
    }
}

/// Lays out `test` as steps going to `then` when it holds and `otherwise` when not; gives its
/// first step. Steps are pushed last first
/// (a test's targets must exist before it), numbered as pushed; [`FieldFilter::new`] turns
/// them round. `None` past the steps a `u8` can number.
fn lower(test: FieldTest, then: u8, otherwise: u8, steps: &mut Vec<Step>) -> Option<u8> {
    match test {
        FieldTest::And(a, b) => {
            let b = lower(*b, then, otherwise, steps)?;
            lower(*a, b, otherwise, steps)
        }
        FieldTest::Or(a, b) => {
            let b = lower(*b, then, otherwise, steps)?;
            lower(*a, then, b, steps)
        }
        FieldTest::Not(x) => lower(*x, otherwise, then, steps),
        test => {
            let at = u8::try_from(steps.len()).ok().filter(|n| *n < FALSE)?;
            steps.push(Step {
                test,
                then,
                otherwise,
            });
            Some(at)
        }
    }
}

/// The field `x.f` of the instance in `slot`, `x` of one kind throughout the filter.
fn own_field(e: &Expr, slot: Slot, kind: &mut Option<KindId>) -> Option<usize> {
    let K::Field(x, k, f) = &e.kind else {
        return None;
    };
    if !matches!(x.kind, K::Local(s) if s == slot) || kind.is_some_and(|kk| kk != *k) {
        return None;
    }
    *kind = Some(*k);
    Some(f.index())
}

/// A local other than the instance's own slot.
fn other_local(e: &Expr, slot: Slot) -> Option<usize> {
    match e.kind {
        K::Local(t) if t != slot => Some(t as usize),
        _ => None,
    }
}

fn test(e: &Expr, slot: Slot, kind: &mut Option<KindId>) -> Option<FieldTest> {
    let both = |a: &Expr, b: &Expr, kind: &mut Option<KindId>| {
        Some((
            Box::new(test(a, slot, kind)?),
            Box::new(test(b, slot, kind)?),
        ))
    };
    Some(match &e.kind {
        K::Binary(BinOp::And, a, b) => {
            let (a, b) = both(a, b, kind)?;
            FieldTest::And(a, b)
        }
        K::Binary(BinOp::Or, a, b) => {
            let (a, b) = both(a, b, kind)?;
            FieldTest::Or(a, b)
        }
        K::Unary(UnOp::Not, x) => FieldTest::Not(Box::new(test(x, slot, kind)?)),
        K::Field(..) => FieldTest::Truth(own_field(e, slot, kind)?),
        K::Binary(
            op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne),
            a,
            b,
        ) if counted(a).is_some() => {
            let field = own_field(counted(a)?, slot, kind)?;
            let against = match (&b.kind, counted(b).map(|x| &x.kind)) {
                (K::Const(Value::Int(n)), _) => Count::Const(*n),
                (K::Local(t), _) if *t != slot => Count::Local(*t as usize),
                (_, Some(K::Field(y, k, f))) if *kind == Some(*k) => match y.kind {
                    K::Local(t) if t != slot => Count::Other {
                        local: t,
                        kind: *k,
                        field: u32::try_from(f.index()).ok()?,
                    },
                    _ => return None,
                },
                _ => return None,
            };
            FieldTest::CountCompare {
                field,
                op: *op,
                against,
            }
        }
        K::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
            let equal = *op == BinOp::Eq;
            match (&a.kind, &b.kind) {
                (K::Field(..), K::Const(c)) => FieldTest::FieldConst {
                    field: own_field(a, slot, kind)?,
                    value: c.clone(),
                    equal,
                },
                (K::Field(..), K::PlayerVar(p, v)) | (K::PlayerVar(p, v), K::Field(..)) => {
                    let own = if matches!(a.kind, K::Field(..)) { a } else { b };
                    FieldTest::FieldSeat {
                        field: own_field(own, slot, kind)?,
                        slot: other_local(p, slot)?,
                        column: v.index(),
                        equal,
                    }
                }
                (K::Field(..), K::Field(..)) => FieldTest::FieldField {
                    field: own_field(a, slot, kind)?,
                    other: own_field(b, slot, kind)?,
                    equal,
                },
                (K::Field(..), _) => FieldTest::FieldLocal {
                    field: own_field(a, slot, kind)?,
                    local: other_local(b, slot)?,
                    equal,
                },
                _ => FieldTest::LocalField {
                    local: other_local(a, slot)?,
                    field: own_field(b, slot, kind)?,
                    equal,
                },
            }
        }
        K::Binary(op @ (BinOp::In | BinOp::NotIn), a, b) => FieldTest::LocalIn {
            local: other_local(a, slot)?,
            field: own_field(b, slot, kind)?,
            within: *op == BinOp::In,
        },
        K::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) => {
            FieldTest::Compare {
                field: own_field(a, slot, kind)?,
                op: *op,
                against: match &b.kind {
                    K::Const(Value::Int(n)) => Number::Const(*n),
                    _ => Number::Local(other_local(b, slot)?),
                },
            }
        }
        _ => return None,
    })
}

/// The list of `count(xs)`, the count of one whole list.
fn counted(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        K::Builtin(Builtin::Count, args) if args.len() == 1 => Some(&args[0]),
        _ => None,
    }
}

impl FieldTest {
    /// Whether instance `i` of `table` passes a test of one field; `None` where the general
    /// path must decide (`and`, `or` and `not` are steps of the branch program, never here).
    #[inline(always)]
    fn field(&self, l: &[Value], table: &Table, seats: &Table, i: usize) -> Option<bool> {
        Some(match self {
            FieldTest::And(..) | FieldTest::Or(..) | FieldTest::Not(..) => return None,
            FieldTest::Truth(f) => match table.get(i, *f) {
                Value::Bool(b) => b.get(),
                _ => return None,
            },
            FieldTest::FieldLocal {
                field,
                local,
                equal,
            } => (*table.get(i, *field) == l[*local]) == *equal,
            FieldTest::FieldConst {
                field,
                value,
                equal,
            } => (*table.get(i, *field) == *value) == *equal,
            FieldTest::FieldField {
                field,
                other,
                equal,
            } => (*table.get(i, *field) == *table.get(i, *other)) == *equal,
            FieldTest::LocalField {
                field,
                local,
                equal,
            } => (l[*local] == *table.get(i, *field)) == *equal,
            FieldTest::FieldSeat {
                field,
                slot,
                column,
                equal,
            } => match l[*slot] {
                // A seat read in place; `none` goes the general way.
                Value::Player(p) => {
                    (*table.get(i, *field) == *seats.get(p.get() as usize, *column)) == *equal
                }
                _ => return None,
            },
            FieldTest::LocalIn {
                field,
                local,
                within,
            } => match table.get(i, *field) {
                // A list long enough that its scan spends work goes the general way, which
                // spends it.
                Value::List(xs) if xs.len() < crate::engine::eval::SCAN_STRIDE => {
                    xs.contains(&l[*local]) == *within
                }
                _ => return None,
            },
            FieldTest::Compare { field, op, against } => {
                let Value::Int(x) = table.get(i, *field) else {
                    return None;
                };
                let y = against.get(l)?;
                match op {
                    BinOp::Lt => *x < y,
                    BinOp::Le => *x <= y,
                    BinOp::Gt => *x > y,
                    _ => *x >= y,
                }
            }
            FieldTest::CountCompare { field, op, against } => {
                let Value::List(xs) = table.get(i, *field) else {
                    return None;
                };
                let x = xs.len() as i64;
                let y = against.get(l, table)?;
                match op {
                    BinOp::Lt => x < y,
                    BinOp::Le => x <= y,
                    BinOp::Gt => x > y,
                    BinOp::Ge => x >= y,
                    BinOp::Eq => x == y,
                    _ => x != y,
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::StmtKind;
    use crate::load::check_source;

    /// The walker's way with a test: `and`, `or` and `not` decide their sides left to right,
    /// the right one only when the left does not decide.
    fn walked(
        t: &FieldTest,
        l: &[Value],
        (table, seats): (&Table, &Table),
        i: usize,
    ) -> Option<bool> {
        Some(match t {
            FieldTest::And(a, b) => {
                walked(a, l, (table, seats), i)? && walked(b, l, (table, seats), i)?
            }
            FieldTest::Or(a, b) => {
                walked(a, l, (table, seats), i)? || walked(b, l, (table, seats), i)?
            }
            FieldTest::Not(x) => !walked(x, l, (table, seats), i)?,
            t => t.field(l, table, seats, i)?,
        })
    }

    /// The filter of every `for` in the program, with its variable's slot.
    fn for_filters(program: &crate::ir::Program) -> Vec<(&Expr, Slot)> {
        program
            .blocks
            .iter()
            .flat_map(|b| &b.stmts)
            .filter_map(|s| match &s.kind {
                StmtKind::For {
                    slot,
                    filter: Some(f),
                    ..
                } => Some((f, *slot)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_branch_program_decides_as_the_tree_is_walked() {
        let src = r#"game "T" { players 2 }
kind cube[1] { a: bool = false  b: bool = false  c: bool = false  w: int = 0  tags: list of int = [] }
player var lucky: int = 0
var n: int = 0
flow {
  let k = 1
  let s = first(players)
  for x in cube where x.w == s.lucky or (s.lucky != x.w and x.a) { n += 1 }
  for x in cube where x.a and (x.b or not x.c) { n += 1 }
  for x in cube where not (x.a or x.b) and x.w > k { n += 1 }
  for x in cube where (x.a and x.b) or (x.c and k in x.tags) or not x.a { n += 1 }
  for x in cube where not not x.a and not (x.b and x.c and x.w <= k) { n += 1 }
  for x in cube where x.a { n += 1 }
}
"#;
        let program = check_source("t.rules", src)
            .program
            .expect("the rules check");
        let filters = for_filters(&program);
        assert_eq!(filters.len(), 6);
        // `k` holds 1 and `s` the first seat, whose `lucky` is 0 or 2.
        let lets: Vec<Slot> = program
            .blocks
            .iter()
            .flat_map(|b| &b.stmts)
            .filter_map(|s| match &s.kind {
                StmtKind::Let(slot, _) => Some(*slot),
                _ => None,
            })
            .collect();
        let mut l = vec![Value::Int(1); 8];
        l[lets[1] as usize] = Value::player(0);
        let truths = [Value::bool(false), Value::bool(true), Value::None];
        let mut compared = 0;
        for (f, slot) in filters {
            let program = FieldFilter::new(f, slot).expect("a field filter");
            let tree = test(f, slot, &mut None).expect("a field test");
            for a in &truths {
                for b in &truths {
                    for c in &truths {
                        for w in [0, 2] {
                            for tags in [vec![], vec![Value::Int(1)]] {
                                let mut table = Table::new(1, 5);
                                *table.get_mut(0, 0) = a.clone();
                                *table.get_mut(0, 1) = b.clone();
                                *table.get_mut(0, 2) = c.clone();
                                *table.get_mut(0, 3) = Value::Int(w);
                                *table.get_mut(0, 4) = Value::List(tags.into_iter().collect());
                                for lucky in [0, 2] {
                                    let mut seats = Table::new(2, 1);
                                    *seats.get_mut(0, 0) = Value::Int(lucky);
                                    let expected = walked(&tree, &l, (&table, &seats), 0);
                                    assert_eq!(
                                        program.decide(&l, &table, &seats, 0),
                                        expected,
                                        "{f:?}"
                                    );
                                    compared += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(compared, 6 * 27 * 4 * 2);
    }

    #[test]
    fn a_filter_of_one_test_or_led_by_a_truth_decides_a_list_as_element_after_element() {
        // Each test a loop of its own, with and without `not`; filters that start with a truth
        // field, either way; and a list with an element whose truth is `none` (the general path
        // must decide it, and fails).
        let src = r#"game "T" { players 2 }
kind cube[3] { a: bool = false  w: int = 0 }
var n: int = 0
flow {
  let k = 1
  for x in cube where x.a { n += 1 }
  for x in cube where not x.a { n += 1 }
  for x in cube where x.w == k { n += 1 }
  for x in cube where k != x.w { n += 1 }
  for x in cube where x.w == 2 { n += 1 }
  for x in cube where not (x.w > k) { n += 1 }
  for x in cube where x.a and x.w == k { n += 1 }
  for x in cube where not x.a and (x.w == k or x.w == 2) { n += 1 }
  for x in cube where x.a or x.w > k { n += 1 }
}
"#;
        let program = check_source("t.rules", src)
            .program
            .expect("the rules check");
        let filters: Vec<FieldFilter> = for_filters(&program)
            .into_iter()
            .map(|(f, slot)| FieldFilter::new(f, slot).expect("a field filter"))
            .collect();
        let led = filters.iter().filter(|f| f.first_truth().is_some()).count();
        assert_eq!(led, 3);
        assert!(filters
            .iter()
            .all(|f| f.single().is_some() || f.first_truth().is_some()));
        let l = vec![Value::Int(1); 4];
        let seats = Table::new(2, 0);
        let mut lists = 0;
        for (a, w) in [
            [Value::bool(true), Value::bool(false), Value::bool(true)],
            [Value::bool(false), Value::None, Value::bool(true)],
        ]
        .iter()
        .zip([[1, 2, 0], [2, 1, 1]])
        {
            let mut table = Table::new(3, 2);
            for i in 0..3 {
                *table.get_mut(i, 0) = a[i].clone();
                *table.get_mut(i, 1) = Value::Int(w[i]);
            }
            let items: Vec<Value> = [2, 0, 1, 1]
                .iter()
                .map(|i| Value::entity(KindId(0), *i))
                .collect();
            for f in &filters {
                let one = |k: usize| f.decide(&l, &table, &seats, f.index(&items[k])?);
                let expected =
                    (0..items.len()).try_fold(0u64, |mask, k| Some(mask | u64::from(one(k)?) << k));
                assert_eq!(f.mask_in((&table, &seats), &l, &items), expected);
                for (start, from_end, want) in
                    [(0, false, true), (1, true, false), (2, false, false)]
                {
                    let mut expected = Some(None);
                    for k in start..items.len() {
                        let at = if from_end { items.len() - 1 - k } else { k };
                        let Some(pass) = one(at) else {
                            expected = None;
                            break;
                        };
                        if pass == want {
                            expected = Some(Some(at));
                            break;
                        }
                    }
                    let got = f.seek_in((&table, &seats), &l, &items, (start, from_end), want);
                    assert_eq!(got, expected, "{:?}", f.steps);
                }
                lists += 1;
            }
        }
        assert_eq!(lists, 18);
    }
}
