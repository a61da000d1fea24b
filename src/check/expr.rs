//! Checking and lowering of expressions and texts.

use super::consts;
use super::scope::{suggest, Scope, Symbol, BUILTIN_FUNCTIONS};
use super::{const_expr, Checker};
use crate::diag::{Diagnostic, Span};
use crate::ir::{self, Builtin, ExprKind as K, QueryKind, Type, Value};
use crate::syntax::ast::{self, BinOp, ExprKind, UnOp};

type Typed = (ir::Expr, Type);

fn mk(kind: K, span: Span) -> ir::Expr {
    ir::Expr::new(kind, span)
}

pub(super) fn error_expr(span: Span) -> Typed {
    (const_expr(Value::None, span), Type::Error)
}

impl Checker<'_> {
    /// Checks an expression and lowers it, with its type. Expressions nested past
    /// [`crate::syntax::MAX_NESTING`] (a chain of thousands of `+`) are refused, which keeps
    /// checking and running them off the end of the stack.
    pub(crate) fn expr(&mut self, e: &ast::Expr, scope: &mut Scope) -> Typed {
        if self.depth >= crate::syntax::MAX_NESTING {
            if !self.too_deep_reported {
                self.too_deep_reported = true;
                self.error(
                    Diagnostic::error(
                        "too-deep",
                        format!(
                            "this expression nests more than {} levels deep",
                            crate::syntax::MAX_NESTING
                        ),
                        e.span,
                    )
                    .with_label("too deep")
                    .with_help("split the expression with `let` or a `def`"),
                );
            }
            return error_expr(e.span);
        }
        self.depth += 1;
        let typed = self.expr_at(e, scope);
        self.depth -= 1;
        typed
    }

    fn expr_at(&mut self, e: &ast::Expr, scope: &mut Scope) -> Typed {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(n) => (const_expr(Value::Int(*n), span), Type::Int),
            ExprKind::Bool(b) => (const_expr(Value::bool(*b), span), Type::Bool),
            ExprKind::None => (const_expr(Value::None, span), Type::Nothing),
            ExprKind::Me => {
                if scope.has_me {
                    (mk(K::Local(0), span), Type::Player)
                } else {
                    self.error(
                        Diagnostic::error("me-outside-action", "`me` is only known inside an action", span)
                            .with_label("no player is acting here")
                            .with_help("pass the player as a parameter, such as `effect pay(p: player) { ... }`"),
                    );
                    error_expr(span)
                }
            }
            ExprKind::Name(n) => self.name_expr(n, scope),
            ExprKind::Call { name, args } => self.call_expr(name, args, span, scope),
            ExprKind::Record { name, fields } => self.construct(name, fields, span, scope),
            ExprKind::Field { base, field } => {
                if let Some(cell) = self.table_cell(base, field, span, scope) {
                    return cell;
                }
                let (b, bt) = self.expr(base, scope);
                self.field_expr(b, &bt, field, span)
            }
            ExprKind::Index { base, index } => self.index_expr(base, index, span, scope),
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, span, scope),
            ExprKind::Unary { op, operand } => {
                let (x, t) = self.expr(operand, scope);
                let want = if *op == UnOp::Not {
                    Type::Bool
                } else {
                    Type::Int
                };
                self.expect_type(
                    &want,
                    &t,
                    operand.span,
                    if *op == UnOp::Not {
                        "the operand of `not`"
                    } else {
                        "the operand of `-`"
                    },
                );
                (mk(K::Unary(*op, Box::new(x)), span), want)
            }
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                let (c, ct) = self.expr(cond, scope);
                self.expect_type(&Type::Bool, &ct, cond.span, "the condition");
                let (a, at) = self.expr(then, scope);
                let (b, bt) = self.expr(otherwise, scope);
                let ty = self.unify(&at, &bt, otherwise.span, "both branches of `if`");
                (mk(K::If(Box::new(c), Box::new(a), Box::new(b)), span), ty)
            }
            ExprKind::List(items) => {
                let mut ty = Type::Error;
                let mut out = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    let (x, t) = self.expr(item, scope);
                    ty = if i == 0 {
                        t
                    } else {
                        self.unify(&ty, &t, item.span, "every element of a list")
                    };
                    out.push(x);
                }
                (mk(K::List(out), span), Type::List(Box::new(ty)))
            }
            ExprKind::Comprehension(c) => self.query(QueryKind::List, c, span, scope),
            ExprKind::ByPlayers(entries) => self.by_players(entries, span, scope),
        }
    }

    /// `xs[i]`: the element at position `i` (from 1) of a list, as `nth(xs, i)` reads it.
    fn index_expr(
        &mut self,
        base: &ast::Expr,
        index: &ast::Expr,
        span: Span,
        scope: &mut Scope,
    ) -> Typed {
        let (b, bt) = self.expr(base, scope);
        let (i, it) = self.expr(index, scope);
        let mut elem = match self.index_element(&bt, base.span) {
            Some(e) => e,
            None => return error_expr(span),
        };
        let i = self.index_key(&bt, i, &it, index.span, &mut elem);
        (mk(K::Builtin(Builtin::Index, vec![b, i]), span), elem)
    }

    /// The element type of what is indexed (`xs` of `xs[i]`); `None`, reported, if it is
    /// not a list.
    pub(crate) fn index_element(&mut self, t: &Type, span: Span) -> Option<Type> {
        if let Some(e) = t.element() {
            return Some(e);
        }
        if let Type::Map(e, _) = t {
            return Some((**e).clone());
        }
        self.error(
            Diagnostic::error(
                "not-indexable",
                format!(
                    "only a list or a map can be indexed with `[...]`, but this is {}",
                    self.type_name(t)
                ),
                span,
            )
            .with_label(format!("this is {}", self.type_name(t)))
            .with_help("index a list (`xs[i]`, positions from 1), or compare the value itself"),
        );
        None
    }

    fn unify(&mut self, a: &Type, b: &Type, span: Span, what: &str) -> Type {
        if a.accepts(b) {
            if *a == Type::Nothing || *a == Type::Error {
                b.clone()
            } else {
                a.clone()
            }
        } else if b.accepts(a) {
            b.clone()
        } else {
            self.error(
                Diagnostic::error(
                    "type-mismatch",
                    format!(
                        "{what} should have one type, but here {} meets {}",
                        self.type_name(a),
                        self.type_name(b)
                    ),
                    span,
                )
                .with_label(format!("this is {}", self.type_name(b)))
                .with_help(format!("make this {}", self.type_name(a))),
            );
            Type::Error
        }
    }

    fn name_expr(&mut self, n: &ast::Name, scope: &mut Scope) -> Typed {
        let span = n.span;
        if let Some((slot, ty)) = scope.lookup(&n.text) {
            self.note_local_use(n, scope);
            return (mk(K::Local(slot), span), ty);
        }
        match n.text.as_str() {
            "players" => return (mk(K::Players, span), Type::List(Box::new(Type::Player))),
            "player_count" => return (mk(K::PlayerCount, span), Type::Int),
            "all_players" => return (mk(K::AllPlayers, span), Type::List(Box::new(Type::Player))),
            _ => {}
        }
        match self.symbols.get(&n.text).map(|s| s.0) {
            Some(sym) => {
                self.use_symbol(sym);
                self.note_symbol_use(n);
                self.symbol_value(n, sym)
            }
            None => self.unknown_value(n, scope),
        }
    }

    /// A declared name read as a value: a global, an enum's or a kind's values, one of them;
    /// any other (a player's variable, a function, a table...) is an error that says how to
    /// use it.
    fn symbol_value(&mut self, n: &ast::Name, sym: Symbol) -> Typed {
        let span = n.span;
        match sym {
            Symbol::Global(id) => (
                mk(K::Global(id), span),
                self.program.globals[id.index()].ty.clone(),
            ),
            Symbol::EnumValue(e, i) => (const_expr(Value::enum_value(e, i), span), Type::Enum(e)),
            Symbol::Instance(k, i) => {
                self.use_symbol(Symbol::Kind(k));
                (const_expr(Value::entity(k, i), span), Type::Entity(k))
            }
            Symbol::Enum(e) => (
                mk(K::EnumValues(e), span),
                Type::List(Box::new(Type::Enum(e))),
            ),
            Symbol::Kind(k) => (
                mk(K::Instances(k), span),
                Type::List(Box::new(Type::Entity(k))),
            ),
            Symbol::PlayerVar(_) => {
                self.error(
                    Diagnostic::error(
                        "type-mismatch",
                        format!("`{}` belongs to each player", n.text),
                        span,
                    )
                    .with_label("whose?")
                    .with_help(format!(
                        "name the player: `me.{0}` in an action, or `p.{0}`",
                        n.text
                    )),
                );
                error_expr(span)
            }
            Symbol::Def(id) => self.def_as_value(n, id),
            Symbol::Table(_) => {
                self.table_as_value(n);
                error_expr(span)
            }
            Symbol::Record(_) => {
                self.error(
                    Diagnostic::error(
                        "type-mismatch",
                        format!("`{}` is a record, not a value", n.text),
                        span,
                    )
                    .with_label("build one with its fields")
                    .with_help(format!("write `{}(field: value, ...)`", n.text)),
                );
                error_expr(span)
            }
            Symbol::Die(_) | Symbol::Proc(_) | Symbol::Action(_) => {
                self.error(
                    Diagnostic::error("type-mismatch", format!("`{}` is not a value", n.text), span)
                        .with_label("cannot be used in an expression")
                        .with_help("dice are rolled with `let r = roll d6`; effects and phases are run as statements"),
                );
                error_expr(span)
            }
        }
    }

    /// A function named as a value: it is called with parentheses, which the fix writes for
    /// a def of no parameters.
    fn def_as_value(&mut self, n: &ast::Name, id: ir::DefId) -> Typed {
        let span = n.span;
        let mut d = Diagnostic::error("type-mismatch", format!("`{}` is a function", n.text), span)
            .with_label("call it with parentheses");
        // A def of no parameters has one call: the fix writes it.
        let arity = self.def_sigs.get(id.index()).map(|(p, _)| p.len());
        d = match arity {
            Some(0) => d.with_help(format!("write `{}()`", n.text)).with_fix(
                Span {
                    start: span.end,
                    ..span
                },
                "()",
            ),
            _ => d.with_help(format!("write `{}(...)`", n.text)),
        };
        self.error(d);
        error_expr(span)
    }

    /// A name nothing declares, read as a value: the error suggests the closest local,
    /// declared name or built-in list.
    fn unknown_value(&mut self, n: &ast::Name, scope: &Scope) -> Typed {
        let span = n.span;
        let mut candidates: Vec<String> = scope.names();
        candidates
            .extend(self.symbol_names(|s| !matches!(s, Symbol::PlayerVar(_) | Symbol::Action(_))));
        candidates.push("players".into());
        candidates.push("player_count".into());
        self.unknown_name(
            n,
            candidates.iter().map(String::as_str),
            "no variable, value or list has this name",
        );
        error_expr(span)
    }

    pub(crate) fn unknown_name<'c>(
        &mut self,
        n: &ast::Name,
        candidates: impl IntoIterator<Item = &'c str>,
        label: &str,
    ) {
        if self.in_expect && (n.text == "winners" || n.text == "over") {
            let step = if n.text == "winners" {
                "`expect winners == [...]`"
            } else {
                "`expect game over` (or `expect not over`)"
            };
            self.error(
                Diagnostic::error(
                    "unknown-name",
                    format!("`{}` is not a value inside a larger `expect`", n.text),
                    n.span,
                )
                .with_label(format!("{step} is a step of its own"))
                .with_help(format!(
                    "write {step} on a line of its own, and the rest of the condition in another `expect`"
                )),
            );
            return;
        }
        let mut d = Diagnostic::error("unknown-name", format!("unknown name `{}`", n.text), n.span)
            .with_label(label);
        d = match suggest(&n.text, candidates) {
            Some(s) => d.with_suggestion(&s),
            None => d.with_help("declare it, or check the spelling"),
        };
        self.error(d);
    }

    pub(crate) fn use_symbol(&mut self, sym: Symbol) {
        self.used.insert(sym);
        if let Some(cur) = self.current {
            self.calls.entry(cur).or_default().insert(sym);
        }
    }

    pub(crate) fn field_expr(
        &mut self,
        base: ir::Expr,
        bt: &Type,
        field: &ast::Name,
        span: Span,
    ) -> Typed {
        match bt {
            Type::Player => match self.player_vars.get(&field.text).copied() {
                Some(id) => {
                    self.use_symbol(Symbol::PlayerVar(id));
                    if self.index.is_some() {
                        if let Some(decl) = self.own_spans.get(&(false, field.text.clone())) {
                            self.note_use(field, *decl);
                        }
                    }
                    (
                        mk(K::PlayerVar(Box::new(base), id), span),
                        self.program.player_vars[id.index()].ty.clone(),
                    )
                }
                None => {
                    let mut names: Vec<String> = self.player_vars.keys().cloned().collect();
                    names.sort();
                    self.unknown_field(field, "players", names.iter().map(String::as_str));
                    error_expr(span)
                }
            },
            Type::Entity(k) => {
                let kind = &self.program.kinds[k.index()];
                match kind.fields.iter().position(|f| f.name == field.text) {
                    Some(i) => {
                        let ty = kind.fields[i].ty.clone();
                        let decl = kind.fields[i].span;
                        self.note_use(field, decl);
                        (
                            mk(K::Field(Box::new(base), *k, ir::FieldId(i as u32)), span),
                            ty,
                        )
                    }
                    None => {
                        let kname = format!("`{}`", kind.name);
                        let names: Vec<String> =
                            kind.fields.iter().map(|f| f.name.clone()).collect();
                        self.unknown_field(field, &kname, names.iter().map(String::as_str));
                        error_expr(span)
                    }
                }
            }
            Type::Record(r) => self.record_field(base, *r, field, span),
            Type::Error => error_expr(span),
            other => {
                let t = self.type_name(other);
                self.error(
                    Diagnostic::error("unknown-field", format!("{t} has no fields"), field.span)
                        .with_label(format!("`.{}` on {t}", field.text))
                        .with_help("only players, instances of kinds and records have fields"),
                );
                error_expr(span)
            }
        }
    }

    fn unknown_field<'c>(
        &mut self,
        field: &ast::Name,
        owner: &str,
        candidates: impl IntoIterator<Item = &'c str>,
    ) {
        let mut d = Diagnostic::error(
            "unknown-field",
            format!("{owner} have no field `{}`", field.text),
            field.span,
        )
        .with_label("no such field");
        d = match suggest(&field.text, candidates) {
            Some(s) => d.with_suggestion(&s),
            None => d.with_help(format!(
                "declare it, such as `player var {}: int = 0`",
                field.text
            )),
        };
        self.error(d);
    }

    fn binary(
        &mut self,
        op: BinOp,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
        scope: &mut Scope,
    ) -> Typed {
        let (mut a, at) = self.expr(lhs, scope);
        let (mut b, bt) = self.expr(rhs, scope);
        let what = format!("the operands of `{}`", op.symbol());
        // A map compared with a list written out (`m == [4, 2, 0]`): the list is read as the
        // map's values in key order, as a `set` or an initial value reads it.
        if matches!(op, BinOp::Eq | BinOp::Ne) {
            if matches!(at, Type::Map(..)) && matches!(bt, Type::List(_)) {
                b = self.value_for(&at, b, &bt, rhs.span, &what);
                return (
                    mk(K::Binary(op, Box::new(a), Box::new(b)), span),
                    Type::Bool,
                );
            }
            if matches!(bt, Type::Map(..)) && matches!(at, Type::List(_)) {
                a = self.value_for(&bt, a, &at, lhs.span, &what);
                return (
                    mk(K::Binary(op, Box::new(a), Box::new(b)), span),
                    Type::Bool,
                );
            }
        }
        let ty = match op {
            BinOp::Or | BinOp::And => {
                self.expect_type(&Type::Bool, &at, lhs.span, &what);
                self.expect_type(&Type::Bool, &bt, rhs.span, &what);
                Type::Bool
            }
            BinOp::Eq | BinOp::Ne => {
                self.unify(&at, &bt, rhs.span, &what);
                Type::Bool
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                self.expect_type(&Type::Int, &at, lhs.span, &what);
                self.expect_type(&Type::Int, &bt, rhs.span, &what);
                Type::Bool
            }
            BinOp::In | BinOp::NotIn => {
                match bt.element() {
                    Some(elem) => {
                        self.unify(&elem, &at, lhs.span, "the element and the list of `in`");
                    }
                    None => self.expect_type(
                        &Type::List(Box::new(at.clone())),
                        &bt,
                        rhs.span,
                        "the right side of `in`",
                    ),
                }
                Type::Bool
            }
            BinOp::Range => {
                self.expect_type(&Type::Int, &at, lhs.span, &what);
                self.expect_type(&Type::Int, &bt, rhs.span, &what);
                Type::List(Box::new(Type::Int))
            }
            BinOp::Add if matches!(at, Type::List(_)) => {
                self.unify(&at, &bt, rhs.span, "the lists joined by `+`")
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => {
                self.expect_type(&Type::Int, &at, lhs.span, &what);
                self.expect_type(&Type::Int, &bt, rhs.span, &what);
                Type::Int
            }
        };
        (mk(K::Binary(op, Box::new(a), Box::new(b)), span), ty)
    }

    fn call_expr(
        &mut self,
        name: &ast::Name,
        args: &[ast::Expr],
        span: Span,
        scope: &mut Scope,
    ) -> Typed {
        if let Some((Symbol::Record(_), _)) = self.symbols.get(&name.text) {
            return self.record_call(name, args, span, scope);
        }
        if name.text == Builtin::Count.name() {
            if let Some(rows) = self.table_count(args, span, scope) {
                return (rows, Type::Int);
            }
        }
        if let Some(kind) = QueryKind::by_name(&name.text) {
            return self.query_call(kind, name, args, span, scope);
        }
        let lowered: Vec<Typed> = args.iter().map(|a| self.expr(a, scope)).collect();
        if let Some(b) = Builtin::by_name(&name.text) {
            return self.builtin_call(b, name, lowered, args, span);
        }
        match self.symbols.get(&name.text).map(|s| s.0) {
            Some(Symbol::Def(id)) => self.def_call(name, id, lowered, args, span),
            Some(Symbol::Proc(_)) => {
                self.error(
                    Diagnostic::error(
                        "type-mismatch",
                        format!("`{}` is an effect, not a function", name.text),
                        span,
                    )
                    .with_label("has no value")
                    .with_help("run it as a statement on its own line"),
                );
                error_expr(span)
            }
            _ => {
                let mut candidates: Vec<&str> = BUILTIN_FUNCTIONS.to_vec();
                let defs = self.symbol_names(|s| matches!(s, Symbol::Def(_)));
                candidates.extend(defs.iter().map(String::as_str));
                self.unknown_name(name, candidates, "no function has this name");
                error_expr(span)
            }
        }
    }

    /// A query called by name (`any`, `all`, `top`, `bottom`, `sorted`): its one argument is a
    /// comprehension, with the `where` or the `by` the query needs.
    fn query_call(
        &mut self,
        kind: QueryKind,
        name: &ast::Name,
        args: &[ast::Expr],
        span: Span,
        scope: &mut Scope,
    ) -> Typed {
        match args {
            [ast::Expr {
                kind: ExprKind::Comprehension(c),
                span: cspan,
            }] => {
                let need_filter = kind == QueryKind::All || kind == QueryKind::Any;
                let need_keys =
                    matches!(kind, QueryKind::Top | QueryKind::Bottom | QueryKind::Sorted);
                if need_keys && c.keys.is_empty() {
                    self.error(
                        Diagnostic::error(
                            "wrong-argument-count",
                            format!("`{}` needs `by` and a key", name.text),
                            *cspan,
                        )
                        .with_label("no `by` here")
                        .with_help(format!("write `{}(p in players by p.score)`", name.text)),
                    );
                }
                if need_filter && c.filter.is_none() {
                    self.error(
                        Diagnostic::error(
                            "wrong-argument-count",
                            format!("`{}` needs `where` and a condition", name.text),
                            *cspan,
                        )
                        .with_label("no `where` here")
                        .with_help(format!(
                            "write `{}(p in players where p.score > 0)`",
                            name.text
                        )),
                    );
                }
                let (q, t) = self.query(kind, c, span, scope);
                (q, t)
            }
            _ => {
                self.error(
                    Diagnostic::error(
                        "wrong-argument-count",
                        format!(
                            "`{}` takes one query, such as `x in xs where ...`",
                            name.text
                        ),
                        span,
                    )
                    .with_label("not a query")
                    .with_help(format!(
                        "write `{}(p in players where p.score > 0)`",
                        name.text
                    )),
                );
                error_expr(span)
            }
        }
    }

    /// A call of a def: as many arguments as it has parameters, each of its parameter's type.
    fn def_call(
        &mut self,
        name: &ast::Name,
        id: ir::DefId,
        lowered: Vec<Typed>,
        args: &[ast::Expr],
        span: Span,
    ) -> Typed {
        self.use_symbol(Symbol::Def(id));
        self.note_symbol_use(name);
        let Some((params, ret)) = self.def_sigs.get(id.index()).cloned() else {
            return error_expr(span);
        };
        if params.len() != args.len() {
            self.arity_error(name, params.len(), args.len(), span);
            return error_expr(span);
        }
        let mut out = Vec::new();
        for (((x, t), want), a) in lowered.into_iter().zip(&params).zip(args) {
            self.expect_type(want, &t, a.span, "an argument");
            out.push(x);
        }
        (mk(K::Call(id, out), span), ret)
    }

    pub(crate) fn arity_error(&mut self, name: &ast::Name, want: usize, got: usize, span: Span) {
        let plural = |n: usize| if n == 1 { "argument" } else { "arguments" };
        self.error(
            Diagnostic::error(
                "wrong-argument-count",
                format!(
                    "`{}` takes {want} {}, but {got} {} given",
                    name.text,
                    plural(want),
                    if got == 1 { "was" } else { "were" }
                ),
                span,
            )
            .with_label(format!("{got} {} here", plural(got)))
            .with_help(format!(
                "give `{}` exactly {want} {}",
                name.text,
                plural(want)
            )),
        );
    }

    // Long because it is one arm per built-in, each the type that built-in gives and what it
    // asks of its arguments: split, the one table of the built-ins' signatures is read in pieces.
    fn builtin_call(
        &mut self,
        b: Builtin,
        name: &ast::Name,
        args: Vec<Typed>,
        raw: &[ast::Expr],
        span: Span,
    ) -> Typed {
        let arity = b.arity();
        let with_default = b.takes_default() && args.len() == 2;
        if args.len() != arity && !with_default {
            self.arity_error(name, arity, args.len(), span);
            return error_expr(span);
        }
        let mut types: Vec<Type> = args.iter().map(|(_, t)| t.clone()).collect();
        // The built-ins that only read values take a map's values as a list (`sum(p.gems)`).
        if let (true, Some(Type::Map(e, _))) = (b.facts().reads_values, types.first()) {
            types[0] = Type::List(e.clone());
        }
        let arg = |i: usize| format!("argument {} of `{}`", i + 1, name.text);
        let list_of = |t: Type| Type::List(Box::new(t));
        // The element type of the first argument, when it must be a list.
        let first = arg(0);
        let mut elem = || self.element_of(&types[0], raw[0].span, &first);
        let ty = match b {
            Builtin::Count => {
                elem();
                Type::Int
            }
            Builtin::Duplicates | Builtin::Reverse | Builtin::Distinct | Builtin::Sort => {
                list_of(elem())
            }
            Builtin::First | Builtin::Last => {
                let e = elem();
                if with_default {
                    self.unify(
                        &e,
                        &types[1],
                        raw[1].span,
                        "the list's elements and the value for an empty list",
                    );
                }
                e
            }
            Builtin::Subsets => list_of(list_of(elem())),
            // Written only by `xs[i] = v` and `xs[i] -= x`, which check them themselves.
            Builtin::Replace | Builtin::Without => types[0].clone(),
            // Written only by `m[k]` of a map by a range, by player or by a kind, which checks
            // its key itself.
            Builtin::Key | Builtin::PlayerKey | Builtin::InstanceKey => Type::Int,
            Builtin::Nth | Builtin::Index => {
                let e = elem();
                self.expect_type(&Type::Int, &types[1], raw[1].span, &arg(1));
                e
            }
            Builtin::Take | Builtin::Drop => {
                let e = elem();
                self.expect_type(&Type::Int, &types[1], raw[1].span, &arg(1));
                list_of(e)
            }
            Builtin::Position => {
                let e = elem();
                self.unify(
                    &e,
                    &types[1],
                    raw[1].span,
                    "the list's elements and the value sought",
                );
                Type::Int
            }
            Builtin::Sum | Builtin::Min | Builtin::Max => {
                self.expect_type(&list_of(Type::Int), &types[0], raw[0].span, &arg(0));
                if with_default {
                    self.expect_type(&Type::Int, &types[1], raw[1].span, &arg(1));
                }
                Type::Int
            }
            Builtin::Others | Builtin::SeatsFrom => {
                self.expect_type(&Type::Player, &types[0], raw[0].span, &arg(0));
                list_of(Type::Player)
            }
            Builtin::Next | Builtin::Prev => {
                self.expect_type(&Type::Player, &types[0], raw[0].span, &arg(0));
                Type::Player
            }
            Builtin::Seat => {
                self.expect_type(&Type::Player, &types[0], raw[0].span, &arg(0));
                Type::Int
            }
            Builtin::AtSeat => {
                self.expect_type(&Type::Int, &types[0], raw[0].span, &arg(0));
                Type::Player
            }
            Builtin::Abs => {
                self.expect_type(&Type::Int, &types[0], raw[0].span, &arg(0));
                Type::Int
            }
            Builtin::Clamp => {
                for (i, t) in types.iter().enumerate() {
                    self.expect_type(&Type::Int, t, raw[i].span, &arg(i));
                }
                Type::Int
            }
        };
        let lowered = args.into_iter().map(|(x, _)| x).collect();
        (mk(K::Builtin(b, lowered), span), ty)
    }

    /// A comprehension, plain or inside `any`, `all`, `top` or `bottom`.
    fn query(
        &mut self,
        kind: QueryKind,
        c: &ast::Comprehension,
        span: Span,
        scope: &mut Scope,
    ) -> Typed {
        let (source, st) = self.expr(&c.source, scope);
        let elem = self.element_of(&st, c.source.span, "what `in` ranges over");
        scope.push();
        let slot = self.bind_local(scope, &c.var, elem.clone());
        let filter = c.filter.as_ref().map(|f| {
            let (x, t) = self.expr(f, scope);
            self.expect_type(&Type::Bool, &t, f.span, "the `where` condition");
            Box::new(x)
        });
        let mut out_ty = elem.clone();
        let map = c.map.as_ref().map(|m| {
            let (x, t) = self.expr(m, scope);
            out_ty = t;
            Box::new(x)
        });
        let keys = c
            .keys
            .iter()
            .map(|k| {
                let (x, t) = self.expr(k, scope);
                self.expect_type(&Type::Int, &t, k.span, "a `by` key");
                x
            })
            .collect::<Vec<_>>();
        scope.pop();
        if !c.keys.is_empty()
            && !matches!(kind, QueryKind::Top | QueryKind::Bottom | QueryKind::Sorted)
        {
            self.error(
                Diagnostic::error(
                    "type-mismatch",
                    "`by` keys only rank inside `top(...)`, `bottom(...)` or `sorted(...)`",
                    c.keys[0].span,
                )
                .with_label("nothing ranks by this")
                .with_help("write `top(p in players by p.score)`"),
            );
        }
        let ty = match kind {
            QueryKind::Any | QueryKind::All => Type::Bool,
            _ => Type::List(Box::new(out_ty)),
        };
        (
            mk(
                K::Query {
                    kind,
                    slot,
                    source: Box::new(source),
                    filter,
                    map,
                    keys,
                },
                span,
            ),
            ty,
        )
    }

    fn by_players(
        &mut self,
        entries: &[(ast::Expr, ast::Expr)],
        span: Span,
        scope: &mut Scope,
    ) -> Typed {
        let (lo, hi) = self.players;
        let mut covered: Vec<Option<Span>> = vec![None; (hi - lo + 1).max(0) as usize];
        let mut out = Vec::new();
        let mut ty = Type::Error;
        for (i, (key, value)) in entries.iter().enumerate() {
            let (x, t) = self.expr(value, scope);
            ty = if i == 0 {
                t
            } else {
                self.unify(&ty, &t, value.span, "every value of `by players`")
            };
            let Some((a, b)) = consts::range(key) else {
                self.error(
                    Diagnostic::error(
                        "not-constant",
                        "a player count must be a constant number or range",
                        key.span,
                    )
                    .with_label("not a constant")
                    .with_help("write `3: ...` or `2..3: ...`"),
                );
                continue;
            };
            // Counts outside the game's range: one warning for the entry, however wide.
            let outside: Vec<String> = [(a, b.min(lo - 1)), (a.max(hi + 1), b)]
                .into_iter()
                .filter(|(x, y)| x <= y)
                .map(|(x, y)| {
                    if x == y {
                        x.to_string()
                    } else {
                        format!("{x} to {y}")
                    }
                })
                .collect();
            if !outside.is_empty() {
                self.error(
                    Diagnostic::warning(
                        "unused-definition",
                        format!("the game is never played by {}", outside.join(" or ")),
                        key.span,
                    )
                    .with_label(format!("players {lo}..{hi}"))
                    .with_help("remove this entry or widen `players` in the game header"),
                );
            }
            for n in a.max(lo)..=b.min(hi) {
                let slot = &mut covered[(n - lo) as usize];
                if let Some(first) = slot {
                    let first = *first;
                    self.error(
                        Diagnostic::error(
                            "overlapping-player-count",
                            format!("{n} players is given twice"),
                            key.span,
                        )
                        .with_label("given again here")
                        .with_secondary(first, "first given here")
                        .with_help("give each player count one value"),
                    );
                } else {
                    *slot = Some(key.span);
                }
            }
            out.push((a, b, x));
        }
        let missing: Vec<String> = covered
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_none())
            .map(|(i, _)| (lo + i as i64).to_string())
            .collect();
        if !missing.is_empty() {
            self.error(
                Diagnostic::error(
                    "uncovered-player-count",
                    format!("no value for {} players", missing.join(", ")),
                    span,
                )
                .with_label(format!("the game allows {lo} to {hi} players"))
                .with_help(format!(
                    "add an entry for {}, such as `{}: ...`",
                    missing.join(" and "),
                    missing[0]
                )),
            );
        }
        (mk(K::ByPlayers(out), span), ty)
    }

    /// Checks a text's interpolations.
    pub(crate) fn text(&mut self, t: &ast::Text, scope: &mut Scope) -> ir::Text {
        let parts = t.parts.iter().map(|p| self.text_part(p, scope)).collect();
        ir::Text { parts }
    }

    fn text_part(&mut self, p: &ast::TextPart, scope: &mut Scope) -> ir::TextPart {
        match p {
            ast::TextPart::Lit(s) => ir::TextPart::Lit(s.clone()),
            ast::TextPart::Expr(e) => match self.expr(e, scope) {
                (m, Type::Map(elem, key)) => self.map_text(m, &elem, key, scope),
                (x, t) if ir::RecordDef::within(&t) => ir::TextPart::Typed(x, t),
                (x, _) => ir::TextPart::Expr(x),
            },
            ast::TextPart::If {
                cond,
                then,
                otherwise,
            } => {
                let (c, t) = self.expr(cond, scope);
                self.expect_type(&Type::Bool, &t, cond.span, "a text's `if` condition");
                ir::TextPart::If {
                    cond: c,
                    then: self.text(then, scope),
                    otherwise: otherwise
                        .as_ref()
                        .map(|o| self.text(o, scope))
                        .unwrap_or_default(),
                }
            }
            ast::TextPart::Each {
                var,
                source,
                filter,
                body,
                sep,
            } => {
                let (src, slot, filter) = self.loop_binding(
                    var,
                    source,
                    filter.as_ref(),
                    scope,
                    "what a text's `each` ranges over",
                );
                let body = self.text(body, scope);
                scope.pop();
                ir::TextPart::Each {
                    slot,
                    source: src,
                    filter,
                    body,
                    sep: sep
                        .as_ref()
                        .map(|s| self.text(s, scope))
                        .unwrap_or_default(),
                }
            }
        }
    }
}
