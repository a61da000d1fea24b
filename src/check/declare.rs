//! Pass 1 of the checker: every declaration gets an id, so that any body can refer to any
//! declaration, whatever their order in the file.

// The pass works on the checker's own state and helpers, all in `check/mod.rs`.
use super::*;

impl Checker<'_> {
    /// Pass 1: give every declaration an id so that bodies can refer to any of them.
    pub(super) fn declare(&mut self) {
        let merged = self.merged;
        let mut game = None;
        let mut counts = [0usize; 5];
        for decl in &merged.decls {
            match decl {
                ast::Decl::Game(g) => {
                    if game.is_some() {
                        self.error(
                            Diagnostic::error(
                                "duplicate-definition",
                                "a second game header",
                                g.span,
                            )
                            .with_label("the game is already named above")
                            .with_help("a rules file has exactly one `game` header"),
                        );
                    }
                    game = Some(g);
                }
                ast::Decl::Variant(_)
                | ast::Decl::Invariant(_)
                | ast::Decl::Show(_)
                | ast::Decl::Section(_)
                | ast::Decl::Scenario(_) => {}
                ast::Decl::Enum(e) => {
                    self.declare_enum(e);
                }
                ast::Decl::Var(v) if v.per_player => {
                    self.needless_view_clauses(v);
                    let id = ir::PlayerVarId(self.program.player_vars.len() as u32);
                    self.define(&v.name, Symbol::PlayerVar(id));
                    self.program.player_vars.push(placeholder_var(v));
                }
                ast::Decl::Var(v) => {
                    if v.visibility == ast::Visibility::Secret {
                        self.secret_without_owner(&v.name, "a game variable");
                    }
                    self.needless_view_clauses(v);
                    let id = ir::GlobalId(self.program.globals.len() as u32);
                    self.define(&v.name, Symbol::Global(id));
                    self.program.globals.push(placeholder_var(v));
                }
                ast::Decl::Kind(k) => self.declare_kind(k),
                ast::Decl::Record(r) => self.declare_record(r),
                ast::Decl::Table(t) => self.declare_table(t),
                ast::Decl::Die(d) => {
                    let id = ir::DieId(self.program.dice.len() as u32);
                    self.define(&d.name, Symbol::Die(id));
                    self.program.dice.push(ir::DieDef {
                        name: d.name.text.clone(),
                        faces: Vec::new(),
                    });
                }
                ast::Decl::Def(d) => {
                    self.declare_def(d);
                }
                ast::Decl::Effect(p) | ast::Decl::Phase(p) => {
                    let kind = if matches!(decl, ast::Decl::Effect(_)) {
                        ir::ProcKind::Effect
                    } else {
                        ir::ProcKind::Phase
                    };
                    let id = self.new_proc(&p.name.text, kind, p.params.len(), p.name.span);
                    self.define(&p.name, Symbol::Proc(id));
                }
                ast::Decl::Action(a) => {
                    self.declare_action(a);
                }
                ast::Decl::Flow(_) => counts[0] += 1,
                ast::Decl::Setup(_) => counts[1] += 1,
                ast::Decl::Score(_) => counts[2] += 1,
                ast::Decl::Winners(_) => counts[3] += 1,
                ast::Decl::Goal(_) => counts[4] += 1,
            }
        }
        self.one_of_each(counts);
        match game {
            Some(g) => self.game_header(g),
            None => {
                let span = merged.decls.first().map(decl_span).unwrap_or_default();
                self.error(
                    Diagnostic::error("missing-game", "this rules file has no `game` header", span)
                        .with_label("expected a game header before here")
                        .with_help("start the file with `game \"Name\" { players 2..4 }`"),
                );
            }
        }
        self.declare_score_def();
        if counts[0] == 0 {
            let span = merged.decls.first().map(decl_span).unwrap_or_default();
            self.error(
                Diagnostic::error("missing-flow", "this game has no `flow`", span)
                    .with_label("the game needs a flow")
                    .with_help("add `flow { ... }` saying how rounds and turns go, such as `flow { repeat 10 { for p in players { turn p } } }`"),
            );
        }
    }

    /// A def: its id, its body a placeholder until pass 3.
    fn declare_def(&mut self, d: &ast::DefDecl) {
        let id = ir::DefId(self.program.defs.len() as u32);
        self.define(&d.name, Symbol::Def(id));
        self.program.defs.push(ir::DefDef {
            name: d.name.text.clone(),
            arity: d.params.len(),
            locals: 0,
            body: const_expr(ir::Value::None, d.body.span),
            remembered: false,
            reads: None,
            gives_list: false,
            span: d.name.span,
        });
    }

    /// An action: its id, its parameters and body placeholders until passes 2 and 3.
    fn declare_action(&mut self, a: &ast::ActionDecl) {
        let id = ir::ActionId(self.program.actions.len() as u32);
        self.define(&a.name, Symbol::Action(id));
        self.program.actions.push(ir::ActionDef {
            name: a.name.text.clone(),
            description: a.description.as_ref().and_then(|d| d.literal()),
            params: Vec::new(),
            requires: Vec::new(),
            prefer: None,
            require_locals: 0,
            locals: 0,
            body: ir::BlockId(0),
            span: a.name.span,
            plan: ir::MovePlan::every_combination(0, 0),
            last_resort: a.last_resort,
        });
    }

    /// An enum: its id, its values' names and how each is shown.
    fn declare_enum(&mut self, e: &ast::EnumDecl) {
        let id = ir::EnumId(self.program.enums.len() as u32);
        self.define(&e.name, Symbol::Enum(id));
        // A value is held as a 16-bit index: past that, values would alias.
        if let Some(first_too_many) = e.values.get(MAX_ENUM_VALUES) {
            self.error(
                Diagnostic::error(
                    "too-many-values",
                    format!(
                        "enum `{}` has {} values, more than {MAX_ENUM_VALUES}",
                        e.name.text,
                        e.values.len()
                    ),
                    first_too_many.span,
                )
                .with_label("one value too many")
                .with_help("use a number (`int in lo..hi`) or a kind for this many"),
            );
        }
        for (i, v) in e.values.iter().take(MAX_ENUM_VALUES).enumerate() {
            self.define(v, Symbol::EnumValue(id, i as u16));
        }
        let mut shown = Vec::new();
        for (v, label) in e.values.iter().zip(&e.shown) {
            shown.push(match label.as_ref().map(|l| (l.literal(), l.span)) {
                None => v.text.clone(),
                Some((Some(text), _)) => text,
                Some((None, span)) => {
                    self.error(
                        Diagnostic::error(
                            "not-constant",
                            format!("how `{}` is shown must be a plain text", v.text),
                            span,
                        )
                        .with_label("has `{...}` in it")
                        .with_help("write the text itself, such as `jack shown as \"J\"`"),
                    );
                    v.text.clone()
                }
            });
        }
        self.program.enums.push(ir::EnumDef {
            name: e.name.text.clone(),
            values: e.values.iter().map(|v| v.text.clone()).collect(),
            shown,
        });
    }

    /// A kind: its id, and its named instances' names.
    fn declare_kind(&mut self, k: &ast::KindDecl) {
        let id = ir::KindId(self.program.kinds.len() as u32);
        self.define(&k.name, Symbol::Kind(id));
        let (span, names) = match &k.count {
            ast::KindCount::Count(e) => (e.span, Vec::new()),
            ast::KindCount::Rows { table, .. } => (table.span, Vec::new()),
            ast::KindCount::Named(names) => {
                for (i, n) in names.iter().enumerate() {
                    self.define(n, Symbol::Instance(id, i as u32));
                }
                (k.name.span, names.iter().map(|n| n.text.clone()).collect())
            }
        };
        self.program.kinds.push(ir::KindDef {
            name: k.name.text.clone(),
            count: const_expr(ir::Value::Int(names.len() as i64), span),
            names,
            index_slot: None,
            rows: (None, Vec::new()),
            label: None,
            listed: None,
            fields: Vec::new(),
            mutable: false,
        });
    }

    /// Reports every `flow`, `setup`, `score`, `winners` and `goal` but the first, where
    /// `counts` says there are several (in that order).
    fn one_of_each(&mut self, counts: [usize; 5]) {
        let merged = self.merged;
        for decl in &merged.decls {
            let (kind, kw, n) = match decl {
                ast::Decl::Flow(b) => ("flow", &b.keyword, counts[0]),
                ast::Decl::Setup(b) => ("setup", &b.keyword, counts[1]),
                ast::Decl::Score(s) => ("score", &s.keyword, counts[2]),
                ast::Decl::Winners(w) => ("winners", &w.keyword, counts[3]),
                ast::Decl::Goal(s) => ("goal", &s.keyword, counts[4]),
                _ => continue,
            };
            if n > 1 {
                self.error(
                    Diagnostic::error(
                        "duplicate-definition",
                        format!("more than one `{kind}`"),
                        kw.span,
                    )
                    .with_label("one of several")
                    .with_help(format!("a game has one `{kind}`; merge them into one")),
                );
            }
        }
    }

    /// Makes the score callable: `score(p)` anywhere is a def of one player, after every
    /// declared def (their ids follow declaration order). A top-level name `score` of the
    /// designer's keeps its meaning.
    pub(super) fn declare_score_def(&mut self) {
        let Some(s) = self.merged.decls.iter().find_map(|d| match d {
            ast::Decl::Score(s) => Some(s),
            _ => None,
        }) else {
            return;
        };
        if self.symbols.contains_key("score") {
            return;
        }
        let id = ir::DefId(self.program.defs.len() as u32);
        let name = ast::Name {
            text: "score".to_string(),
            span: s.keyword.span,
        };
        self.define(&name, Symbol::Def(id));
        // Scoring uses it at the end, whether or not a rule calls it.
        self.used.insert(Symbol::Def(id));
        self.program.defs.push(ir::DefDef {
            name: "score".to_string(),
            arity: 1,
            locals: 1,
            body: const_expr(ir::Value::None, s.body.span),
            remembered: false,
            reads: None,
            gives_list: false,
            span: s.keyword.span,
        });
        self.score_def = Some(id);
    }

    pub(super) fn new_proc(
        &mut self,
        name: &str,
        kind: ir::ProcKind,
        arity: usize,
        span: Span,
    ) -> ir::ProcId {
        let id = ir::ProcId(self.program.procs.len() as u32);
        self.program.procs.push(ir::ProcDef {
            name: name.to_string(),
            kind,
            arity,
            locals: 0,
            body: ir::BlockId(0),
            span,
        });
        id
    }

    pub(super) fn game_header(&mut self, g: &ast::GameDecl) {
        self.program.title = g.title.literal().unwrap_or_default();
        self.program.source = g.source.as_ref().and_then(|s| s.literal());
        self.program.seat_names = g.seats.iter().filter_map(|s| s.literal()).collect();
        self.program.always_ask = g.always_ask;
        let Some(players) = &g.players else {
            self.error(
                Diagnostic::error(
                    "invalid-players",
                    "the game does not say how many play",
                    g.span,
                )
                .with_label("no `players` here")
                .with_help("add `players 2..4` (or a single number) to the game header"),
            );
            return;
        };
        let range = consts::range(players);
        match range {
            Some((lo, hi)) if lo >= 1 && lo <= hi && hi <= 16 => {
                self.players = (lo, hi);
                self.program.min_players = lo as u8;
                self.program.max_players = hi as u8;
                if !self.program.seat_names.is_empty()
                    && (self.program.seat_names.len() as i64) < hi
                {
                    self.error(
                        Diagnostic::error(
                            "invalid-players",
                            format!(
                                "{} seat names for up to {hi} players",
                                self.program.seat_names.len()
                            ),
                            g.span,
                        )
                        .with_label("too few seat names")
                        .with_help("give one seat name for each player the game allows"),
                    );
                }
            }
            _ => self.error(
                Diagnostic::error(
                    "invalid-players",
                    "the player count must be a number or a range from 1 to 16",
                    players.span,
                )
                .with_label("not a player count")
                .with_help("write a constant such as `players 3..5` or `players 4`"),
            ),
        }
    }
}
