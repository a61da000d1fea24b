//! Pass 3 of the checker: every body (setup, flow, actions, effects, defs, scores) checked and
//! lowered to the IR.

// The pass works on the checker's own state and helpers, all in `check/mod.rs`.
use super::*;

impl Checker<'_> {
    /// Pass 3: every body, checked and lowered.
    pub(super) fn bodies(&mut self) {
        let merged = self.merged;
        let (mut g, mut pv, mut k, mut df) = (0usize, 0usize, 0usize, 0usize);
        let mut tables = 0;
        let mut flow = None;
        self.record_bodies();
        for decl in &merged.decls {
            match decl {
                ast::Decl::Var(v) => {
                    let (slot, sym) = if v.per_player {
                        pv += 1;
                        (pv - 1, Symbol::PlayerVar(ir::PlayerVarId(pv as u32 - 1)))
                    } else {
                        g += 1;
                        (g - 1, Symbol::Global(ir::GlobalId(g as u32 - 1)))
                    };
                    self.var_body(v, slot, sym);
                }
                ast::Decl::Kind(kd) => {
                    self.kind_body(kd, k);
                    k += 1;
                }
                ast::Decl::Def(d) => {
                    self.def_body(d, df);
                    df += 1;
                }
                ast::Decl::Effect(p) | ast::Decl::Phase(p) => {
                    self.proc_body(p);
                }
                ast::Decl::Action(a) => {
                    let Some(id) = self.actions.get(&a.name.text).copied() else {
                        continue;
                    };
                    if self.program.actions[id.index()].span != a.name.span {
                        continue;
                    }
                    self.action(id, a);
                }
                ast::Decl::Flow(b) | ast::Decl::Setup(b) => {
                    let is_flow = matches!(decl, ast::Decl::Flow(_));
                    let kind = if is_flow {
                        ir::ProcKind::Flow
                    } else {
                        ir::ProcKind::Setup
                    };
                    let id = self.new_proc(&b.keyword.text, kind, 0, b.keyword.span);
                    self.current = Some(Symbol::Proc(id));
                    let mut scope = Scope::new(false);
                    let body = self.block(&b.body, &mut scope, false);
                    let proc_ = &mut self.program.procs[id.index()];
                    proc_.body = body;
                    proc_.locals = scope.max_slots();
                    if is_flow {
                        flow.get_or_insert(id);
                    } else {
                        self.program.setup.get_or_insert(id);
                    }
                }
                ast::Decl::Score(s) => {
                    let end = self.end_of_a_player(s, "a score");
                    if let Some(id) = self.score_def {
                        let def = &mut self.program.defs[id.index()];
                        def.body = end.body.clone();
                        def.locals = end.locals;
                    }
                    self.program.score = Some(end);
                }
                ast::Decl::Goal(s) => {
                    let end = self.end_of_a_player(s, "a goal");
                    let shared = !ir::reads_locals(&end.body, 0, 1);
                    self.program.goal = Some(ir::Goal { end, shared });
                }
                ast::Decl::Winners(w) => {
                    self.winners_body(w);
                }
                ast::Decl::Scenario(sc) => self.scenario(sc),
                ast::Decl::Show(s) => self.show_decl(s),
                // Checked once the program is whole (`sections::run`).
                ast::Decl::Section(_) => {}
                ast::Decl::Invariant(inv) => {
                    self.invariant_body(inv);
                }
                ast::Decl::Table(t) => {
                    self.table_rows(ir::TableId(tables), t);
                    tables += 1;
                }
                ast::Decl::Game(_)
                | ast::Decl::Variant(_)
                | ast::Decl::Enum(_)
                | ast::Decl::Record(_)
                | ast::Decl::Die(_) => {}
            }
        }
        if let Some(flow) = flow {
            self.program.flow = flow;
        }
        self.current = None;
    }

    /// An effect's or a phase's body, checked against its parameters and lowered.
    fn proc_body(&mut self, p: &ast::ProcDecl) {
        let Some(id) = self.own_proc(p) else {
            return; // a duplicate, already reported
        };
        self.current = Some(Symbol::Proc(id));
        let mut scope = Scope::new(false);
        let params = self.proc_sigs.get(id.index()).cloned().unwrap_or_default();
        for (param, ty) in p.params.iter().zip(params) {
            self.bind_param(&mut scope, &param.name, ty);
        }
        let body = self.block(&p.body, &mut scope, false);
        let proc_ = &mut self.program.procs[id.index()];
        proc_.body = body;
        proc_.locals = scope.max_slots();
    }

    /// The `winners` rule, a list of players, checked and lowered.
    fn winners_body(&mut self, w: &ast::WinnersDecl) {
        self.current = None;
        let mut scope = Scope::new(false);
        let (body, ty) = self.expr(&w.body, &mut scope);
        self.expect_type(
            &Type::List(Box::new(Type::Player)),
            &ty,
            w.body.span,
            "the winners",
        );
        self.program.winners = Some(ir::EndFn {
            locals: scope.max_slots(),
            body,
        });
    }

    /// An invariant's condition, checked and lowered.
    fn invariant_body(&mut self, inv: &ast::InvariantDecl) {
        self.current = None;
        let mut scope = Scope::new(false);
        let (cond, ty) = self.expr(&inv.cond, &mut scope);
        self.expect_type(&Type::Bool, &ty, inv.cond.span, "an invariant");
        self.program.invariants.push(ir::Invariant {
            name: inv.name.text.clone(),
            description: inv.description.as_ref().and_then(|d| d.literal()),
            check: ir::EndFn {
                locals: scope.max_slots(),
                body: cond,
            },
            span: inv.cond.span,
        });
    }

    /// A variable's initial value and `visible when` condition, checked and lowered into
    /// global or per-player variable `slot`.
    fn var_body(&mut self, v: &ast::VarDecl, slot: usize, sym: Symbol) {
        self.current = Some(sym);
        let mut scope = Scope::new(false);
        let (init, ty) = self.expr(&v.init, &mut scope);
        let target = if v.per_player {
            &self.program.player_vars[slot]
        } else {
            &self.program.globals[slot]
        };
        let want = target.ty.clone();
        let init = self.value_for(&want, init, &ty, v.init.span, "the initial value");
        let target = if v.per_player {
            &mut self.program.player_vars[slot]
        } else {
            &mut self.program.globals[slot]
        };
        target.init = init;
        if let Some(c) = &v.visible_when {
            let visible = if v.per_player {
                self.visibility_condition(c, "owner", Type::Player, v.name.span)
            } else {
                self.visibility_condition(c, "", Type::Error, v.name.span)
            };
            let target = if v.per_player {
                &mut self.program.player_vars[slot]
            } else {
                &mut self.program.globals[slot]
            };
            target.visible_when = Some(Box::new(visible));
        }
        if let Some(part) = &v.visible_part {
            let subject = if v.per_player {
                ("owner", Type::Player)
            } else {
                ("", Type::Error)
            };
            let part = self.visible_part(part, subject, &want, v.visibility, &v.name);
            let target = if v.per_player {
                &mut self.program.player_vars[slot]
            } else {
                &mut self.program.globals[slot]
            };
            target.visible_part = part.map(Box::new);
        }
        if let Some(c) = &v.shown_when {
            let subject = if v.per_player {
                ("owner", Type::Player)
            } else {
                ("", Type::Error)
            };
            let cond = self.shown_condition(c, subject);
            let target = if v.per_player {
                &mut self.program.player_vars[slot]
            } else {
                &mut self.program.globals[slot]
            };
            target.shown_when = Some(Box::new(cond));
        }
        // Initial values may use comprehensions; the engine gives them a frame.
        self.note_init_locals(scope.max_slots());
    }

    /// A kind's number of instances, label, `listed when` condition and field initial values,
    /// checked and lowered into kind `k`.
    fn kind_body(&mut self, kd: &ast::KindDecl, k: usize) {
        let kind_id = ir::KindId(k as u32);
        self.current = Some(Symbol::Kind(kind_id));
        let mut scope = Scope::new(false);
        if let ast::KindCount::Count(count) = &kd.count {
            let (count_ir, ty) = self.expr(count, &mut scope);
            self.expect_type(&Type::Int, &ty, count.span, "the number of instances");
            self.program.kinds[k].count = count_ir;
        }
        if let Some(label) = &kd.label {
            let mut label_scope = Scope::new(false);
            label_scope.shadow("it", Type::Entity(kind_id), kd.name.span);
            let text = self.text(label, &mut label_scope);
            self.program.kinds[k].label = Some((text, label_scope.max_slots()));
        }
        if let Some(listed) = &kd.listed {
            let mut listed_scope = Scope::new(false);
            listed_scope.shadow("it", Type::Entity(kind_id), kd.name.span);
            let (cond, ty) = self.expr(listed, &mut listed_scope);
            self.expect_type(&Type::Bool, &ty, listed.span, "the `listed when` condition");
            self.program.kinds[k].listed = Some(ir::EndFn {
                locals: listed_scope.max_slots(),
                body: cond,
            });
        }
        if let ast::KindCount::Rows { table, copies } = &kd.count {
            self.kind_rows(k, table, copies.as_ref());
        }
        // Field initial values may use `index`, the instance's number from 1.
        let index = scope.shadow("index", Type::Int, kd.name.span);
        self.program.kinds[k].index_slot = Some(index);
        if matches!(kd.count, ast::KindCount::Rows { .. }) {
            // ... and `row`, the row of the table it is a copy of.
            let row = scope.shadow("row", Type::Int, kd.name.span);
            self.program.kinds[k].rows.0 = Some(row);
        }
        for (i, fd) in kd.fields.iter().enumerate() {
            let (init, ty) = self.expr(&fd.init, &mut scope);
            let visible = fd
                .visible_when
                .as_ref()
                .map(|c| self.visibility_condition(c, "it", Type::Entity(kind_id), kd.name.span));
            let part = match (&fd.visible_part, self.program.kinds[k].fields.get(i)) {
                (Some(part), Some(field)) => {
                    let ty = field.ty.clone();
                    let subject = ("it", Type::Entity(kind_id));
                    self.visible_part(part, subject, &ty, fd.visibility, &fd.name)
                }
                _ => None,
            };
            let shown = fd
                .shown_when
                .as_ref()
                .map(|c| self.shown_condition(c, ("it", Type::Entity(kind_id))));
            if let Some(field) = self.program.kinds[k].fields.get_mut(i) {
                field.visible_part = part.map(Box::new);
                field.shown_when = shown.map(Box::new);
            }
            if let Some(field) = self.program.kinds[k].fields.get(i) {
                let want = field.ty.clone();
                let init = self.value_for(&want, init, &ty, fd.init.span, "the initial value");
                self.program.kinds[k].fields[i].init = init;
                self.program.kinds[k].fields[i].visible_when = visible.map(Box::new);
            }
        }
        self.note_init_locals(scope.max_slots());
    }

    /// Def number `df`'s body, checked against its signature and lowered.
    fn def_body(&mut self, d: &ast::DefDecl, df: usize) {
        self.current = Some(Symbol::Def(ir::DefId(df as u32)));
        let mut scope = Scope::new(false);
        let (params, ret) = self.def_sigs[df].clone();
        for (p, ty) in d.params.iter().zip(params) {
            self.bind_param(&mut scope, &p.name, ty);
        }
        let (body, ty) = self.expr(&d.body, &mut scope);
        self.expect_type(&ret, &ty, d.body.span, "the result");
        let def = &mut self.program.defs[df];
        def.body = body;
        def.locals = scope.max_slots();
        def.gives_list = matches!(ret, Type::List(_));
    }

    pub(super) fn note_init_locals(&mut self, n: usize) {
        self.program.init_locals = self.program.init_locals.max(n);
    }

    /// A `visible when` condition: slot 0 is `viewer`, slot 1 the owner (`owner`) or instance (`it`).
    pub(super) fn visibility_condition(
        &mut self,
        cond: &ast::Expr,
        subject: &str,
        subject_ty: Type,
        span: Span,
    ) -> ir::EndFn {
        let mut scope = Scope::new(false);
        scope.shadow("viewer", Type::Player, span);
        // A global has no subject; its slot stays unnamed so that slot numbers agree.
        scope.shadow(
            if subject.is_empty() { " " } else { subject },
            subject_ty,
            span,
        );
        let (body, ty) = self.expr(cond, &mut scope);
        self.expect_type(&Type::Bool, &ty, cond.span, "a visibility condition");
        ir::EndFn {
            locals: scope.max_slots(),
            body,
        }
    }

    /// `secret` marks a move's argument: a def's or an effect's parameters are never shown.
    pub(super) fn no_secret_params(&mut self, params: &[ast::Param]) {
        self.no_set_params(params);
        for span in params.iter().filter_map(|p| p.secret) {
            self.error(
                Diagnostic::error(
                    "secret-parameter",
                    "only an action's parameter can be secret",
                    span,
                )
                .with_label("not an action's parameter")
                .with_help(
                    "remove `secret`: what a def or an effect is given is never shown to anyone",
                )
                .with_fix(span, ""),
            );
        }
    }

    /// A set of values (`exactly 3 of gem`) is a move's argument, listed as one move a set: a
    /// def, an effect or a table column takes a `list of T`.
    pub(super) fn no_set_params(&mut self, params: &[ast::Param]) {
        for count in params.iter().filter_map(|p| p.count.as_ref()) {
            self.error(
                Diagnostic::error(
                    "set-parameter",
                    "only an action's parameter can be a set of values",
                    count.span,
                )
                .with_label("not an action's parameter")
                .with_help("write `list of T`: the caller gives the list"),
            );
        }
    }

    pub(super) fn action(&mut self, id: ir::ActionId, a: &ast::ActionDecl) {
        self.current = Some(Symbol::Action(id));
        let mut scope = Scope::new(true);
        let mut params = Vec::new();
        // Ranges written with expressions see `me` only: their slots follow the parameters'.
        let mut range_scope = Scope::new(true);
        for _ in &a.params {
            range_scope.shadow(" ", Type::Error, a.name.span);
        }
        for p in &a.params {
            if let Some(count) = &p.count {
                let set = self.set_param(p, count);
                params.push(ir::ActionParam {
                    name: p.name.text.clone(),
                    ty: set.ty.clone(),
                    bounds: set.bounds,
                    secret: p.secret.is_some(),
                    range: None,
                    set: Some(set.sizes),
                });
                self.bind_param(&mut scope, &p.name, set.ty);
                continue;
            }
            let (ty, bounds, range) = match &p.ty {
                ast::TypeExpr::Int {
                    bounds: Some(b), ..
                } if consts::range(b).is_none() => {
                    (Type::Int, None, self.param_range(b, &mut range_scope))
                }
                _ => {
                    let (ty, bounds) = self.resolve_type(&p.ty);
                    (ty, bounds, None)
                }
            };
            self.param_domain(p, &ty, bounds);
            params.push(ir::ActionParam {
                name: p.name.text.clone(),
                ty: ty.clone(),
                bounds,
                secret: p.secret.is_some(),
                range,
                set: None,
            });
            self.bind_param(&mut scope, &p.name, ty);
        }
        if a.params.len() > MAX_PARAMS {
            self.error(
                Diagnostic::error(
                    "too-many-parameters",
                    format!(
                        "action `{}` has {} parameters, more than {MAX_PARAMS}",
                        a.name.text,
                        a.params.len()
                    ),
                    a.params[MAX_PARAMS].ty.span(),
                )
                .with_label("one parameter too many")
                .with_help("choose the rest inside the action with `choose`"),
            );
        }
        let (requires, prefer, rest) = self.action_head(a, &mut scope);
        let require_locals = scope.max_slots().max(range_scope.max_slots());
        let body = ast::Block {
            stmts: rest,
            span: a.body.span,
        };
        let body = self.block(&body, &mut scope, false);
        let def = &mut self.program.actions[id.index()];
        def.params = params;
        def.requires = requires;
        def.prefer = prefer;
        def.body = body;
        def.locals = scope.max_slots().max(range_scope.max_slots());
        def.require_locals = require_locals;
        def.plan = ir::MovePlan::of(def);
    }

    /// An action's head: its requirements and preference, checked in `scope`; and the
    /// statements after them.
    fn action_head(
        &mut self,
        a: &ast::ActionDecl,
        scope: &mut Scope,
    ) -> (Vec<ir::Require>, Option<ir::Expr>, Vec<ast::Stmt>) {
        let mut requires = Vec::new();
        let mut prefer = None;
        let mut rest = Vec::new();
        let mut in_head = true;
        for s in &a.body.stmts {
            match &s.kind {
                ast::StmtKind::Require { cond, reason } if in_head => {
                    let (c, ty) = self.expr(cond, scope);
                    self.expect_type(&Type::Bool, &ty, cond.span, "a requirement");
                    let reason = self.text(reason, scope);
                    requires.push(ir::Require {
                        cond: c,
                        reason,
                        span: s.span,
                    });
                }
                ast::StmtKind::Prefer(value) if in_head => {
                    let (v, ty) = self.expr(value, scope);
                    self.expect_type(&Type::Int, &ty, value.span, "a preference");
                    if prefer.is_some() {
                        self.error(misplaced_prefer(s.span, "a second `prefer` in this action"));
                    }
                    prefer = Some(v);
                }
                _ => {
                    in_head = false;
                    rest.push(s.clone());
                }
            }
        }
        (requires, prefer, rest)
    }

    /// Reports parameter `p` of type `ty` if players could not list its values: a range
    /// wider than [`ir::MAX_PARAM_VALUES`], or a type with no finite set of values.
    fn param_domain(&mut self, p: &ast::Param, ty: &Type, bounds: Option<(i64, i64)>) {
        let dynamic = *ty == Type::Int
            && bounds.is_none()
            && !matches!(p.ty, ast::TypeExpr::Int { bounds: None, .. });
        let finite = matches!(
            ty,
            Type::Player | Type::Bool | Type::Enum(_) | Type::Entity(_) | Type::Error
        ) || (*ty == Type::Int && (bounds.is_some() || dynamic));
        // Every value becomes a move in the list: a range too wide to list is no better.
        let width = bounds.map_or(0, |(lo, hi)| (hi as i128) - (lo as i128) + 1);
        if width > i128::from(ir::MAX_PARAM_VALUES) {
            self.error(
                Diagnostic::error(
                    "infinite-domain",
                    format!(
                        "parameter `{}` has {width} values, more than players could list",
                        p.name.text
                    ),
                    p.ty.span(),
                )
                .with_label(format!("at most {} values", ir::MAX_PARAM_VALUES))
                .with_help(
                    "narrow the range, or choose from a list inside the action with `choose`",
                ),
            );
        } else if !finite {
            self.error(
                Diagnostic::error("infinite-domain", format!("parameter `{}` has no finite set of values", p.name.text), p.ty.span())
                    .with_label("players could not list every value of this")
                    .with_help("use player, bool, an enum, a kind, or `int in lo..hi`; choose from a list inside the action with `choose`"),
            );
        }
    }

    /// The ends of a parameter's `int in lo..hi` written with expressions, checked as numbers
    /// that read `me` and the state; how far they reach is proved once every body is checked.
    pub(super) fn param_range(
        &mut self,
        b: &ast::Expr,
        scope: &mut Scope,
    ) -> Option<Box<(ir::Expr, ir::Expr)>> {
        let ast::ExprKind::Binary {
            op: ast::BinOp::Range,
            lhs,
            rhs,
        } = &b.kind
        else {
            self.error(
                Diagnostic::error(
                    "not-constant",
                    "the values of a parameter are a range `lo..hi`",
                    b.span,
                )
                .with_label("not a range")
                .with_help("write `int in 1..me.coins`"),
            );
            return None;
        };
        let (lo, lo_ty) = self.expr(lhs, scope);
        self.expect_type(&Type::Int, &lo_ty, lhs.span, "the low end of a range");
        let (hi, hi_ty) = self.expr(rhs, scope);
        self.expect_type(&Type::Int, &hi_ty, rhs.span, "the high end of a range");
        Some(Box::new((lo, hi)))
    }

    pub(super) fn bind_param(&mut self, scope: &mut Scope, name: &ast::Name, ty: Type) {
        if self.index.is_some() {
            let what = index::Pending::Local(index::NameKind::Parameter, ty.clone());
            self.note_decl(name, what);
        }
        if let Err(first) = scope.bind(&name.text, ty, name.span) {
            self.error(
                Diagnostic::error(
                    "duplicate-definition",
                    format!("parameter `{}` is named twice", name.text),
                    name.span,
                )
                .with_label("named again here")
                .with_secondary(first, "first named here")
                .with_help("give each parameter its own name"),
            );
        }
    }
}

/// A `prefer` where none belongs: outside an action's head, or a second one.
pub(super) fn misplaced_prefer(span: crate::diag::Span, label: &str) -> Diagnostic {
    Diagnostic::error(
        "misplaced-prefer",
        "`prefer` belongs once at the start of an action, among its `require`s",
        span,
    )
    .with_label(label.to_string())
    .with_help("write one `prefer` per action, above its first effect")
}
