//! Pass 2 of the checker: the types of variables, fields, parameters and results, and the
//! counts that must be known before any body is checked.

// The pass works on the checker's own state and helpers, all in `check/mod.rs`.
use super::*;

impl Checker<'_> {
    /// Pass 2: types of variables, fields, parameters and results; constant counts.
    pub(super) fn signatures(&mut self) {
        let merged = self.merged;
        let (mut g, mut pv, mut k, mut d) = (0, 0, 0, 0);
        let mut tables = 0;
        let mut records = 0;
        for decl in &merged.decls {
            match decl {
                ast::Decl::Record(rd) => {
                    self.record_fields(rd, records);
                    records += 1;
                }
                ast::Decl::Table(t) => {
                    self.table_columns(ir::TableId(tables), t);
                    tables += 1;
                }
                ast::Decl::Var(v) => {
                    let (ty, bounds) = self.resolve_type(&v.ty);
                    let by_players = self.bounds_by_players(&v.ty);
                    let target = if v.per_player {
                        pv += 1;
                        &mut self.program.player_vars[pv - 1]
                    } else {
                        g += 1;
                        &mut self.program.globals[g - 1]
                    };
                    target.ty = ty;
                    target.bounds = bounds;
                    target.bounds_by_players = by_players;
                }
                ast::Decl::Kind(kd) => {
                    self.kind_fields(kd, k);
                    k += 1;
                }
                ast::Decl::Die(dd) => {
                    let faces = consts::int_list(&dd.faces);
                    match faces {
                        Some(faces) if !faces.is_empty() && faces.len() <= 1000 => {
                            self.program.dice[d].faces = faces
                        }
                        _ => self.error(
                            Diagnostic::error(
                                "not-constant",
                                "a die's faces must be a constant range or list of numbers",
                                dd.faces.span,
                            )
                            .with_label("not a constant list of faces")
                            .with_help("write `die d6: 1..6` or `die odd: [1, 3, 5]`"),
                        ),
                    }
                    d += 1;
                }
                ast::Decl::Def(dd) => {
                    self.no_secret_params(&dd.params);
                    let params = dd.params.iter().map(|p| self.param_type(p)).collect();
                    let ret = self.resolve_type(&dd.ret).0;
                    self.def_sigs.push((params, ret));
                }
                ast::Decl::Effect(p) | ast::Decl::Phase(p) => {
                    self.no_secret_params(&p.params);
                    let params: Vec<Type> = p.params.iter().map(|p| self.param_type(p)).collect();
                    if let Some(id) = self.own_proc(p) {
                        if self.proc_sigs.len() <= id.index() {
                            self.proc_sigs.resize(id.index() + 1, Vec::new());
                        }
                        self.proc_sigs[id.index()] = params;
                    }
                }
                _ => {}
            }
        }
        if self.score_def.is_some() {
            self.def_sigs.push((vec![Type::Player], Type::Int));
        }
    }

    /// Kind `k`'s fields: their types and bounds, each name once.
    fn kind_fields(&mut self, kd: &ast::KindDecl, k: usize) {
        let fields: Vec<ir::VarDef> = kd
            .fields
            .iter()
            .map(|fd| {
                let (ty, bounds) = self.resolve_type(&fd.ty);
                ir::VarDef {
                    name: fd.name.text.clone(),
                    ty,
                    bounds,
                    bounds_by_players: self.bounds_by_players(&fd.ty),
                    visibility: fd.visibility,
                    init: const_expr(ir::Value::None, fd.init.span),
                    visible_when: None,
                    visible_part: None,
                    shown_when: None,
                    span: fd.name.span,
                }
            })
            .collect();
        let mut seen = BTreeMap::new();
        for fd in kd
            .fields
            .iter()
            .filter(|f| f.visibility == ast::Visibility::Secret)
        {
            self.secret_without_owner(&fd.name, "a field");
        }
        for fd in &kd.fields {
            self.needless_view_clause(&fd.name, fd.visibility, fd.visible_when.as_deref(), false);
            self.needless_view_clause(&fd.name, fd.visibility, fd.shown_when.as_deref(), true);
        }
        for (i, fd) in kd.fields.iter().enumerate() {
            if !seen.contains_key(&fd.name.text) {
                let kind = ir::KindId(k as u32);
                self.note_decl(&fd.name, index::Pending::Field(kind, i));
            }
            if let Some(first) = seen.insert(fd.name.text.clone(), fd.name.span) {
                self.field_twice(&fd.name, first);
            }
        }
        self.program.kinds[k].fields = fields;
    }

    /// `duplicate-definition` of a kind's or a record's field declared again at `name`.
    pub(super) fn field_twice(&mut self, name: &ast::Name, first: Span) {
        self.error(
            Diagnostic::error(
                "duplicate-definition",
                format!("field `{}` is defined twice", name.text),
                name.span,
            )
            .with_label("defined again here")
            .with_secondary(first, "first defined here")
            .with_help("rename or remove one of the fields"),
        );
    }

    /// A def's or an effect's parameter's type: a list for a set written there by mistake
    /// (`set-parameter`), so that its uses are not reported again.
    fn param_type(&mut self, p: &ast::Param) -> Type {
        let ty = self.resolve_type(&p.ty).0;
        match p.count {
            Some(_) => Type::List(Box::new(ty)),
            None => ty,
        }
    }

    /// The id of a procedure declaration, unless it duplicates an earlier name.
    pub(super) fn own_proc(&self, p: &ast::ProcDecl) -> Option<ir::ProcId> {
        match self.symbols.get(&p.name.text).copied() {
            Some((Symbol::Proc(id), _)) if self.program.procs[id.index()].span == p.name.span => {
                Some(id)
            }
            _ => None,
        }
    }

    pub(super) fn secret_without_owner(&mut self, name: &ast::Name, what: &str) {
        self.error(
            Diagnostic::warning("secret-without-owner", format!("`{}` is secret, but {what} has no owner", name.text), name.span)
                .with_label("seen by nobody")
                .with_help("write `hidden` (nobody sees it) with a `visible when` condition, or make it a `player secret var`"),
        );
    }

    /// [`Checker::needless_view_clause`] for a variable's `visible when` and `shown when`.
    pub(super) fn needless_view_clauses(&mut self, v: &ast::VarDecl) {
        self.needless_view_clause(&v.name, v.visibility, v.visible_when.as_deref(), false);
        self.needless_view_clause(&v.name, v.visibility, v.shown_when.as_deref(), true);
    }

    /// Warns of a clause of views (`visible when`, or `shown when` with `shown`) that changes
    /// nothing: on `internal` bookkeeping, which no view draws for anyone, and `visible when` on
    /// a public value, which every seat sees already.
    pub(super) fn needless_view_clause(
        &mut self,
        name: &ast::Name,
        vis: ast::Visibility,
        when: Option<&ast::Expr>,
        shown: bool,
    ) {
        if let (ast::Visibility::Public, Some(w), false) = (vis, when, shown) {
            self.error(
                Diagnostic::warning(
                    "visible-when-public",
                    format!(
                        "`{}` is public: `visible when` shows it to nobody more",
                        name.text
                    ),
                    w.span,
                )
                .with_label("every seat sees it already")
                .with_help(format!(
                    "write `hidden` or `secret` before `{}` to show it only where the condition holds",
                    name.text
                )),
            );
            return;
        }
        let (ast::Visibility::Internal, Some(w)) = (vis, when) else {
            return;
        };
        let [code, message, label, help] = if shown {
            [
                "shown-internal",
                "no view draws it, whatever `shown when` says",
                "draws nothing",
                "drop `shown when`, or make the variable public to draw it in views",
            ]
        } else {
            [
                "visible-internal",
                "no view shows it, whatever `visible when` says",
                "never used",
                "drop `visible when`, or write `hidden ... visible when` to show it to some",
            ]
        };
        self.error(
            Diagnostic::warning(
                code,
                format!("`{}` is internal: {message}", name.text),
                w.span,
            )
            .with_label(label)
            .with_help(help),
        );
    }

    /// The bounds of `int in lo..hi` for each player count the game allows (indexed by the
    /// count), when they follow it; empty when they are constant or not bounds at all.
    pub(super) fn bounds_by_players(&self, t: &ast::TypeExpr) -> Vec<Option<(i64, i64)>> {
        if let ast::TypeExpr::Map(inner, ..) = t {
            return self.bounds_by_players(inner);
        }
        let ast::TypeExpr::Int {
            bounds: Some(b), ..
        } = t
        else {
            return Vec::new();
        };
        if consts::range(b).is_some() {
            return Vec::new();
        }
        let (lo, hi) = self.players;
        (0..=hi)
            .map(|n| {
                (n >= lo)
                    .then(|| consts::range_with_players(b, n))
                    .flatten()
            })
            .collect()
    }

    /// The widest of bounds that follow the player count (each count's bounds known at load
    /// and in order), reporting backward bounds for a count; `None` if some count's bounds are
    /// not known at load.
    pub(super) fn widest_by_players(&mut self, b: &ast::Expr) -> Option<(i64, i64)> {
        let (lo, hi) = self.players;
        let mut widest: Option<(i64, i64)> = None;
        for n in lo..=hi {
            let (l, h) = consts::range_with_players(b, n)?;
            if l > h {
                self.error(
                    Diagnostic::error(
                        "invalid-bounds",
                        format!("with {n} players the bounds are {l}..{h}: backwards"),
                        b.span,
                    )
                    .with_label("the low bound comes first for every player count")
                    .with_help("make the low bound at most the high bound for every player count"),
                );
                return Some((l, l));
            }
            widest = Some(widest.map_or((l, h), |(a, z)| (a.min(l), z.max(h))));
        }
        widest
    }

    /// Resolves a written type; bounds of `int in lo..hi` must be constant.
    pub(crate) fn resolve_type(&mut self, t: &ast::TypeExpr) -> (Type, Option<(i64, i64)>) {
        match t {
            ast::TypeExpr::Int { bounds, .. } => {
                let b = bounds.as_ref().and_then(|b| {
                    let r = consts::range(b);
                    if let Some((lo, hi)) = r.filter(|(lo, hi)| lo > hi) {
                        self.error(
                            Diagnostic::error(
                                "invalid-bounds",
                                format!("the bounds {lo}..{hi} are backwards"),
                                b.span,
                            )
                            .with_label("the low bound comes first")
                            .with_help(format!("write `int in {hi}..{lo}`"))
                            .with_fix(b.span, format!("{hi}..{lo}")),
                        );
                        return None;
                    }
                    if r.is_none() {
                        if let Some(widest) = self.widest_by_players(b) {
                            return Some(widest);
                        }
                        self.error(
                            Diagnostic::error(
                                "not-constant",
                                "the bounds of an int must be known before play, for every player count",
                                b.span,
                            )
                            .with_label("not known at load for every player count")
                            .with_help("write `int in -10..10`; bounds may follow the player count: `0..5 * player_count`, `0..by players { 2: 10, 3..4: 15 }`"),
                        );
                    }
                    r
                });
                (Type::Int, b)
            }
            ast::TypeExpr::Bool(_) => (Type::Bool, None),
            ast::TypeExpr::Player(_) => (Type::Player, None),
            ast::TypeExpr::List(inner, _) => {
                (Type::List(Box::new(self.resolve_type(inner).0)), None)
            }
            // `int in 0..7 by gem`: the bounds hold every entry, as they hold a number.
            ast::TypeExpr::Map(inner, key, _) => {
                let (elem, bounds) = self.resolve_type(inner);
                (self.map_type(elem, key), bounds)
            }
            ast::TypeExpr::Named(n) => match self.symbols.get(&n.text).map(|s| s.0) {
                Some(Symbol::Enum(id)) => {
                    self.note_symbol_use(n);
                    self.used.insert(Symbol::Enum(id));
                    (Type::Enum(id), None)
                }
                Some(Symbol::Kind(id)) => {
                    self.note_symbol_use(n);
                    self.used.insert(Symbol::Kind(id));
                    (Type::Entity(id), None)
                }
                Some(Symbol::Record(id)) => {
                    self.note_symbol_use(n);
                    self.used.insert(Symbol::Record(id));
                    (Type::Record(id), None)
                }
                _ => {
                    let types = self.symbol_names(|s| {
                        matches!(s, Symbol::Enum(_) | Symbol::Kind(_) | Symbol::Record(_))
                    });
                    let candidates = types
                        .iter()
                        .map(String::as_str)
                        .chain(["int", "bool", "player"]);
                    let mut d = Diagnostic::error(
                        "unknown-type",
                        format!("unknown type `{}`", n.text),
                        n.span,
                    )
                    .with_label("not a type");
                    d = match suggest(&n.text, candidates) {
                        Some(s) => d.with_suggestion(&s),
                        None => d.with_help("types are int, bool, player, list of T, and the names of enums, kinds and records"),
                    };
                    self.error(d);
                    (Type::Error, None)
                }
            },
        }
    }

    /// `score(p) = ...` or `goal(p) = ...` checked (an `int`, `what` in the message) and
    /// lowered, the player in slot 0.
    pub(super) fn end_of_a_player(&mut self, s: &ast::ScoreDecl, what: &str) -> ir::EndFn {
        self.current = None;
        let mut scope = Scope::new(false);
        self.bind_param(&mut scope, &s.player, Type::Player);
        let (body, ty) = self.expr(&s.body, &mut scope);
        self.expect_type(&Type::Int, &ty, s.body.span, what);
        ir::EndFn {
            locals: scope.max_slots(),
            body,
        }
    }
}
