//! Filters that test only the fields of the instance a query looks at (`not a.in_play`,
//! `a.in_play and (me == a.leader or me in a.members)`, `c.bank > 0`, `x.marker != x.card`,
//! `count(x.cards) > count(y.cards)`), run over a whole list in one loop (a query's, or a
//! `for`'s): no closure called and no element bound to its slot, the work each node would spend
//! added up as the loop goes and charged once at its end, when the budget holds it.
//!
//! Without a budget check inside, the loop could not fail where the general path would; so it
//! runs only to find out what the general path would find and spend, changing nothing, and its
//! result stands only if the work suffices (then no check on the way would have failed). A
//! value it cannot read as the general path reads it (an element that is no instance, a truth
//! field that is `none`, a number that is none) ends it too: the general path then runs and
//! fails as it fails.

use crate::engine::{State, Table};
use crate::ir::{BinOp, Builtin, Expr, ExprKind as K, KindId, Slot, UnOp, Value};

/// A test of the fields of an instance of one kind, each node with the work the walker spends
/// on it.
#[derive(Debug)]
enum FieldTest {
    And(Box<FieldTest>, Box<FieldTest>),
    Or(Box<FieldTest>, Box<FieldTest>),
    Not(Box<FieldTest>),
    /// `x.f`, a truth field (1).
    Truth(usize),
    /// `x.f == y` or `!=`, `y` a local (3: both sides read, then compared).
    FieldLocal {
        field: usize,
        local: usize,
        equal: bool,
    },
    /// `x.f == c` or `!=` (2: a constant is compared where it is written).
    FieldConst {
        field: usize,
        value: Value,
        equal: bool,
    },
    /// `x.f == x.g` or `!=`, two fields of the same instance (3: each side, then compared).
    FieldField {
        field: usize,
        other: usize,
        equal: bool,
    },
    /// `y == x.f` or `!=`, `y` a local (2: the local is read in place).
    LocalField {
        field: usize,
        local: usize,
        equal: bool,
    },
    /// `y in x.f` or `not in`, `y` a local (2: the list is read where it lies).
    LocalIn {
        field: usize,
        local: usize,
        within: bool,
    },
    /// `x.f < n` (or `<=`, `>`, `>=`), `n` a whole number or a local (3: each side a node).
    Compare {
        field: usize,
        op: BinOp,
        against: Number,
    },
    /// `count(x.f) < n` (or `<=`, `>`, `>=`, `==`, `!=`), `x.f` a list, `n` a whole number, a
    /// local or `count(y.f)` of a local `y` of the same kind (3: the comparison, and each side a
    /// node; a count reads its list where it lies).
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

/// A filter of the instance bound to a query's slot that reads nothing but its fields, locals
/// and constants.
#[derive(Debug)]
pub(crate) struct FieldFilter {
    /// The kind of the instances.
    kind: usize,
    test: FieldTest,
}

impl FieldFilter {
    /// The filter `e` of the instance in `slot`, if it is made of the tests above.
    pub(super) fn new(e: &Expr, slot: Slot) -> Option<FieldFilter> {
        let mut kind = None;
        let test = test(e, slot, &mut kind)?;
        Some(FieldFilter {
            kind: kind?.index(),
            test,
        })
    }

    /// Whether `item` passes, and the work the general path spends deciding it (the element's
    /// own unit included); `None` when the general path must decide (it may fail).
    #[inline]
    pub(crate) fn passes(&self, state: &State, l: &[Value], item: &Value) -> Option<(bool, u64)> {
        let i = match item {
            Value::Entity(k, i) if k.index() == self.kind => *i as usize,
            _ => return None,
        };
        let mut work = 1;
        let pass = self
            .test
            .holds(l, &state.entities[self.kind], i, &mut work)?;
        Some((pass, work))
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
    /// Whether instance `i` of `table` passes, adding the work of each node decided to `work`.
    /// A test of one field is decided here, in line; `and`, `or` and `not` by [`Self::joined`]:
    /// most filters are two or three fields joined once, and a call for each field cost more
    /// than the field's test.
    #[inline(always)]
    fn holds(&self, l: &[Value], table: &Table, i: usize, work: &mut u64) -> Option<bool> {
        match self {
            FieldTest::And(..) | FieldTest::Or(..) | FieldTest::Not(..) => {
                self.joined(l, table, i, work)
            }
            _ => self.field(l, table, i, work),
        }
    }

    /// [`Self::holds`] of `and`, `or` and `not`.
    fn joined(&self, l: &[Value], table: &Table, i: usize, work: &mut u64) -> Option<bool> {
        Some(match self {
            FieldTest::And(a, b) => {
                *work += 1;
                a.holds(l, table, i, work)? && b.holds(l, table, i, work)?
            }
            FieldTest::Or(a, b) => {
                *work += 1;
                a.holds(l, table, i, work)? || b.holds(l, table, i, work)?
            }
            FieldTest::Not(x) => {
                *work += 1;
                !x.holds(l, table, i, work)?
            }
            _ => return self.field(l, table, i, work),
        })
    }

    /// [`Self::holds`] of a test of one field.
    #[inline(always)]
    fn field(&self, l: &[Value], table: &Table, i: usize, work: &mut u64) -> Option<bool> {
        Some(match self {
            FieldTest::And(..) | FieldTest::Or(..) | FieldTest::Not(..) => {
                return self.joined(l, table, i, work)
            }
            FieldTest::Truth(f) => {
                *work += 1;
                match table.get(i, *f) {
                    Value::Bool(b) => *b,
                    _ => return None,
                }
            }
            FieldTest::FieldLocal {
                field,
                local,
                equal,
            } => {
                *work += 3;
                (*table.get(i, *field) == l[*local]) == *equal
            }
            FieldTest::FieldConst {
                field,
                value,
                equal,
            } => {
                *work += 2;
                (*table.get(i, *field) == *value) == *equal
            }
            FieldTest::FieldField {
                field,
                other,
                equal,
            } => {
                *work += 3;
                (*table.get(i, *field) == *table.get(i, *other)) == *equal
            }
            FieldTest::LocalField {
                field,
                local,
                equal,
            } => {
                *work += 2;
                (l[*local] == *table.get(i, *field)) == *equal
            }
            FieldTest::LocalIn {
                field,
                local,
                within,
            } => {
                *work += 2;
                match table.get(i, *field) {
                    Value::List(xs) => xs.contains(&l[*local]) == *within,
                    _ => return None,
                }
            }
            FieldTest::Compare { field, op, against } => {
                *work += 3;
                let (Value::Int(x), y) = (table.get(i, *field), against) else {
                    return None;
                };
                let y = match y {
                    Number::Const(n) => *n,
                    Number::Local(t) => match l[*t] {
                        Value::Int(n) => n,
                        _ => return None,
                    },
                };
                match op {
                    BinOp::Lt => *x < y,
                    BinOp::Le => *x <= y,
                    BinOp::Gt => *x > y,
                    _ => *x >= y,
                }
            }
            FieldTest::CountCompare { field, op, against } => {
                *work += 3;
                let Value::List(xs) = table.get(i, *field) else {
                    return None;
                };
                let x = xs.len() as i64;
                let y = match against {
                    Count::Const(n) => *n,
                    Count::Local(t) => match l[*t] {
                        Value::Int(n) => n,
                        _ => return None,
                    },
                    Count::Other { local, kind, field } => match (&l[*local as usize], kind) {
                        (Value::Entity(k, j), kind) if k == kind => {
                            match table.get(*j as usize, *field as usize) {
                                Value::List(ys) => ys.len() as i64,
                                _ => return None,
                            }
                        }
                        _ => return None,
                    },
                };
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
