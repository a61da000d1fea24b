//! The checker: resolves names, checks types, runs lints and lowers a merged rules file to the
//! [`ir::Program`] the engine runs.
//!
//! Invariant: it collects every problem in a file, never only the first; a program is produced
//! only when there are no errors. It never runs a game.

mod consts;
mod expr;
mod hidden;
pub mod index;
mod init_order;
mod lints;
mod matching;
mod ranges;
mod scenario;
mod scope;
mod several;
mod stmt;
mod tables;

use crate::diag::{Diagnostic, Diagnostics, SourceMap, Span};
use crate::ir::{self, Type};
use crate::syntax::ast;
use scope::{suggest, Scope, Symbol};
use std::collections::{BTreeMap, BTreeSet};

/// The most values one action parameter may take: each is a move offered on every turn.
const MAX_PARAM_VALUES: i128 = 1000;
/// Values of one enum: each is held as a 16-bit index.
const MAX_ENUM_VALUES: usize = u16::MAX as usize + 1;
/// Parameters of one action: the engine lists moves with a fixed odometer of this size.
pub const MAX_PARAMS: usize = crate::ir::MAX_PARAMS;

/// The words `meeple play` reads as commands.
pub use lints::COMMAND_WORDS;

/// Functions the language defines, for editors.
pub const BUILTIN_FUNCTIONS: &[&str] = scope::BUILTIN_FUNCTIONS;
/// Values the language defines (`players`, `player_count`), for editors.
pub const BUILTIN_VALUES: &[&str] = scope::BUILTIN_VALUES;

/// A merged rules file: the base game's declarations with every variant applied.
#[derive(Debug, Clone, Default)]
pub struct Merged {
    /// Every source file involved.
    pub sources: SourceMap,
    /// The declarations after patching, in source order.
    pub decls: Vec<ast::Decl>,
    /// Titles of the variants applied.
    pub variants: Vec<String>,
}

/// Checks a merged rules file. Returns the program if there were no errors, and every
/// diagnostic (errors and warnings) in source order.
pub fn check(merged: &Merged) -> (Option<ir::Program>, Diagnostics) {
    let (program, diags, _) = run(merged, false);
    (program, diags)
}

/// Like [`check`], also keeping every declaration and resolved use of a name, for editors.
pub fn check_indexed(merged: &Merged) -> (Option<ir::Program>, Diagnostics, index::NameIndex) {
    let (program, diags, index) = run(merged, true);
    (program, diags, index.unwrap_or_default())
}

fn run(
    merged: &Merged,
    indexed: bool,
) -> (Option<ir::Program>, Diagnostics, Option<index::NameIndex>) {
    let mut checker = Checker::new(merged);
    if indexed {
        checker.index = Some(index::Builder::default());
    }
    checker.declare();
    checker.signatures();
    checker.bodies();
    checker.bound_param_ranges(MAX_PARAM_VALUES);
    checker.order_initial_values();
    lints::run(&mut checker);
    hidden::run(&mut checker);
    let mut diags = std::mem::take(&mut checker.diags);
    diags.sort_by_key(|d| (d.span.file, d.span.start, d.code));
    let diags = Diagnostics(cap_per_code(diags));
    let index = checker
        .index
        .take()
        .map(|b| b.finish(&checker.program, &checker.def_sigs, &checker.proc_sigs));
    if diags.has_errors() {
        return (None, diags, index);
    }
    (Some(checker.finish()), diags, index)
}

/// How many diagnostics of one code a check reports one by one; past them, one more says how
/// many were left out. A file of half a million unused variables is answered in a moment with
/// a hundred warnings and a count, not half a million drawn one by one.
pub const MAX_PER_CODE: usize = 100;

/// Keeps the first [`MAX_PER_CODE`] diagnostics of each code (in source order), and for a
/// code with more, one diagnostic at the first left out that counts them (an error if any
/// left out is one, so a file with errors still has errors).
fn cap_per_code(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut seen: BTreeMap<&'static str, usize> = BTreeMap::new();
    for d in &diags {
        *seen.entry(d.code).or_default() += 1;
    }
    if seen.values().all(|n| *n <= MAX_PER_CODE) {
        return diags;
    }
    let mut kept = Vec::new();
    let mut shown: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut left_out: BTreeMap<&'static str, (Diagnostic, usize, bool)> = BTreeMap::new();
    for d in diags {
        let n = shown.entry(d.code).or_default();
        *n += 1;
        if *n <= MAX_PER_CODE {
            kept.push(d);
            continue;
        }
        let error = d.is_error();
        let entry = left_out.entry(d.code).or_insert((d, 0, false));
        entry.1 += 1;
        entry.2 |= error;
    }
    for (code, (first, count, error)) in left_out {
        let message =
            format!("{count} more `{code}` problems like the ones above, not shown one by one");
        let summary = if error {
            Diagnostic::error(code, message, first.span)
        } else {
            Diagnostic::warning(code, message, first.span)
        };
        kept.push(summary.with_label("the first of them").with_help(format!(
            "the first {MAX_PER_CODE} of each kind are shown; fix those and check again"
        )));
    }
    kept.sort_by_key(|d| (d.span.file, d.span.start, d.code));
    kept
}

/// State of one check: symbol tables, the program under construction and the problems found.
pub(crate) struct Checker<'a> {
    merged: &'a Merged,
    pub(crate) diags: Vec<Diagnostic>,
    symbols: BTreeMap<String, (Symbol, Span)>,
    player_vars: BTreeMap<String, ir::PlayerVarId>,
    /// Actions live in their own namespace: only `turn ... only` names them.
    actions: BTreeMap<String, ir::ActionId>,
    /// Where each player variable and action is declared, for duplicate reports.
    own_spans: BTreeMap<(bool, String), Span>,
    used: BTreeSet<Symbol>,
    /// Procedures and actions referenced from each body, for reachability.
    calls: BTreeMap<Symbol, BTreeSet<Symbol>>,
    current: Option<Symbol>,
    players: (i64, i64),
    /// How deep the expression being checked is nested.
    depth: usize,
    /// Whether `too-deep` was reported (once is enough).
    too_deep_reported: bool,
    /// `score(p)` as a def that any expression may call, when the game declares a score and no
    /// other top-level name is `score`.
    score_def: Option<ir::DefId>,
    /// How many loops enclose the statement being checked, within its body (a `secretly`
    /// block starts again from none): where `break` and `continue` may stand.
    loops: usize,
    /// Parameter types of each procedure, by id.
    proc_sigs: Vec<Vec<Type>>,
    /// Parameter and result types of each def, by id.
    def_sigs: Vec<(Vec<Type>, Type)>,
    program: ir::Program,
    /// Declarations and uses of names, when an editor asked for them.
    index: Option<index::Builder>,
    /// True while the condition of a scenario's `expect` is checked, where `winners` and
    /// `over` are steps of their own written inside a larger condition.
    in_expect: bool,
}

impl<'a> Checker<'a> {
    fn new(merged: &'a Merged) -> Checker<'a> {
        Checker {
            merged,
            diags: Vec::new(),
            symbols: BTreeMap::new(),
            player_vars: BTreeMap::new(),
            actions: BTreeMap::new(),
            own_spans: BTreeMap::new(),
            used: BTreeSet::new(),
            calls: BTreeMap::new(),
            current: None,
            players: (1, 1),
            depth: 0,
            too_deep_reported: false,
            loops: 0,
            score_def: None,
            proc_sigs: Vec::new(),
            def_sigs: Vec::new(),
            index: None,
            in_expect: false,
            program: ir::Program {
                title: String::new(),
                variants: merged.variants.clone(),
                source: None,
                min_players: 1,
                max_players: 1,
                seat_names: Vec::new(),
                always_ask: false,
                enums: Vec::new(),
                globals: Vec::new(),
                player_vars: Vec::new(),
                kinds: Vec::new(),
                dice: Vec::new(),
                tables: Vec::new(),
                defs: Vec::new(),
                procs: Vec::new(),
                actions: Vec::new(),
                blocks: Vec::new(),
                flow: ir::ProcId(0),
                setup: None,
                score: None,
                goal: None,
                winners: None,
                invariants: Vec::new(),
                scenarios: Vec::new(),
                sources: merged.sources.clone(),
                init_locals: 0,
                init_order: Vec::new(),
                variables: Default::default(),
            },
        }
    }

    pub(crate) fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Records a declaration for the index, if one is kept.
    fn note_decl(&mut self, name: &ast::Name, what: index::Pending) {
        if let Some(ix) = &mut self.index {
            ix.declare(&name.text, name.span, what);
        }
    }

    /// Records that `at` names the declaration whose name is written at `decl`.
    pub(crate) fn note_use(&mut self, at: &ast::Name, decl: Span) {
        if let Some(ix) = &mut self.index {
            ix.use_at(at.span, &at.text, decl);
        }
    }

    /// Records that `at` names a top-level declaration (a var, def, enum, kind, ...).
    pub(crate) fn note_symbol_use(&mut self, at: &ast::Name) {
        if self.index.is_some() {
            if let Some(&(_, decl)) = self.symbols.get(&at.text) {
                self.note_use(at, decl);
            }
        }
    }

    /// Records that `at` names a local or parameter of `scope`.
    pub(crate) fn note_local_use(&mut self, at: &ast::Name, scope: &Scope) {
        if self.index.is_some() {
            if let Some(decl) = scope.span_of(&at.text) {
                self.note_use(at, decl);
            }
        }
    }

    /// Binds a name written in a body (`let`, `for`, ...), shadowing any before it.
    pub(crate) fn bind_local(&mut self, scope: &mut Scope, name: &ast::Name, ty: Type) -> ir::Slot {
        if self.index.is_some() {
            self.note_decl(
                name,
                index::Pending::Local(index::NameKind::Local, ty.clone()),
            );
        }
        scope.shadow(&name.text, ty, name.span)
    }

    fn define(&mut self, name: &ast::Name, symbol: Symbol) {
        let callable = matches!(symbol, Symbol::Def(_) | Symbol::Proc(_));
        let text = name.text.as_str();
        if scope::BUILTIN_VALUES.contains(&text)
            || (callable && scope::BUILTIN_FUNCTIONS.contains(&text))
        {
            self.error(
                Diagnostic::error(
                    "duplicate-definition",
                    format!("`{}` is a built-in name", name.text),
                    name.span,
                )
                .with_label("already means something")
                .with_help(
                    "choose another name; see `meeple help language` for the built-in names",
                ),
            );
            // Rejected, so never reachable by name: do not also report it as unused.
            self.used.insert(symbol);
            return;
        }
        let separate = match symbol {
            Symbol::PlayerVar(_) => Some(false),
            Symbol::Action(_) => Some(true),
            _ => None,
        };
        let existing = match separate {
            Some(ns) => self.own_spans.get(&(ns, name.text.clone())).copied(),
            None => self.symbols.get(&name.text).map(|s| s.1),
        };
        if let Some(first) = existing {
            let mut d = Diagnostic::error(
                "duplicate-definition",
                format!("`{}` is defined more than once", name.text),
                name.span,
            )
            .with_label("defined again here")
            .with_help("rename one of them; every top-level name must be unique");
            if first.file == name.span.file {
                d = d.with_secondary(first, "first defined here");
            }
            self.error(d);
            self.used.insert(symbol);
            return;
        }
        self.note_decl(name, index::Pending::Symbol(symbol));
        match (separate, symbol) {
            (Some(ns), _) => {
                self.own_spans.insert((ns, name.text.clone()), name.span);
                match symbol {
                    Symbol::PlayerVar(id) => {
                        self.player_vars.insert(name.text.clone(), id);
                    }
                    Symbol::Action(id) => {
                        self.actions.insert(name.text.clone(), id);
                    }
                    _ => {}
                }
            }
            (None, _) => {
                self.symbols.insert(name.text.clone(), (symbol, name.span));
            }
        }
    }

    /// Pass 1: give every declaration an id so that bodies can refer to any of them.
    fn declare(&mut self) {
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
                ast::Decl::Variant(_) | ast::Decl::Invariant(_) | ast::Decl::Scenario(_) => {}
                ast::Decl::Enum(e) => {
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
                                    .with_help(
                                        "write the text itself, such as `jack shown as \"J\"`",
                                    ),
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
                ast::Decl::Var(v) if v.per_player => {
                    self.internal_visible_when(&v.name, v.visibility, v.visible_when.as_ref());
                    let id = ir::PlayerVarId(self.program.player_vars.len() as u32);
                    self.define(&v.name, Symbol::PlayerVar(id));
                    self.program.player_vars.push(placeholder_var(v));
                }
                ast::Decl::Var(v) => {
                    if v.visibility == ast::Visibility::Secret {
                        self.secret_without_owner(&v.name, "a game variable");
                    }
                    self.internal_visible_when(&v.name, v.visibility, v.visible_when.as_ref());
                    let id = ir::GlobalId(self.program.globals.len() as u32);
                    self.define(&v.name, Symbol::Global(id));
                    self.program.globals.push(placeholder_var(v));
                }
                ast::Decl::Kind(k) => {
                    let id = ir::KindId(self.program.kinds.len() as u32);
                    self.define(&k.name, Symbol::Kind(id));
                    let (span, names) = match &k.count {
                        ast::KindCount::Count(e) => (e.span, Vec::new()),
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
                        label: None,
                        listed: None,
                        fields: Vec::new(),
                        mutable: false,
                    });
                }
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
                    let id = ir::ActionId(self.program.actions.len() as u32);
                    self.define(&a.name, Symbol::Action(id));
                    self.program.actions.push(ir::ActionDef {
                        name: a.name.text.clone(),
                        description: a.description.as_ref().and_then(|d| d.literal()),
                        params: Vec::new(),
                        requires: Vec::new(),
                        require_locals: 0,
                        locals: 0,
                        body: ir::BlockId(0),
                        span: a.name.span,
                        plan: ir::MovePlan::every_combination(0, 0),
                    });
                }
                ast::Decl::Flow(_) => counts[0] += 1,
                ast::Decl::Setup(_) => counts[1] += 1,
                ast::Decl::Score(_) => counts[2] += 1,
                ast::Decl::Winners(_) => counts[3] += 1,
                ast::Decl::Goal(_) => counts[4] += 1,
            }
        }
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

    /// Makes the score callable: `score(p)` anywhere is a def of one player, after every
    /// declared def (their ids follow declaration order). A top-level name `score` of the
    /// designer's keeps its meaning.
    fn declare_score_def(&mut self) {
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

    fn new_proc(&mut self, name: &str, kind: ir::ProcKind, arity: usize, span: Span) -> ir::ProcId {
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

    fn game_header(&mut self, g: &ast::GameDecl) {
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

    /// Pass 2: types of variables, fields, parameters and results; constant counts.
    fn signatures(&mut self) {
        let merged = self.merged;
        let (mut g, mut pv, mut k, mut d) = (0, 0, 0, 0);
        let mut tables = 0;
        for decl in &merged.decls {
            match decl {
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
                        self.internal_visible_when(
                            &fd.name,
                            fd.visibility,
                            fd.visible_when.as_ref(),
                        );
                    }
                    for (i, fd) in kd.fields.iter().enumerate() {
                        if !seen.contains_key(&fd.name.text) {
                            let kind = ir::KindId(k as u32);
                            self.note_decl(&fd.name, index::Pending::Field(kind, i));
                        }
                        if let Some(first) = seen.insert(fd.name.text.clone(), fd.name.span) {
                            self.error(
                                Diagnostic::error(
                                    "duplicate-definition",
                                    format!("field `{}` is defined twice", fd.name.text),
                                    fd.name.span,
                                )
                                .with_label("defined again here")
                                .with_secondary(first, "first defined here")
                                .with_help("rename or remove one of the fields"),
                            );
                        }
                    }
                    self.program.kinds[k].fields = fields;
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
                    let params = dd
                        .params
                        .iter()
                        .map(|p| self.resolve_type(&p.ty).0)
                        .collect();
                    let ret = self.resolve_type(&dd.ret).0;
                    self.def_sigs.push((params, ret));
                }
                ast::Decl::Effect(p) | ast::Decl::Phase(p) => {
                    self.no_secret_params(&p.params);
                    let params: Vec<Type> = p
                        .params
                        .iter()
                        .map(|p| self.resolve_type(&p.ty).0)
                        .collect();
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

    /// The id of a procedure declaration, unless it duplicates an earlier name.
    fn own_proc(&self, p: &ast::ProcDecl) -> Option<ir::ProcId> {
        match self.symbols.get(&p.name.text).copied() {
            Some((Symbol::Proc(id), _)) if self.program.procs[id.index()].span == p.name.span => {
                Some(id)
            }
            _ => None,
        }
    }

    fn secret_without_owner(&mut self, name: &ast::Name, what: &str) {
        self.error(
            Diagnostic::warning("secret-without-owner", format!("`{}` is secret, but {what} has no owner", name.text), name.span)
                .with_label("seen by nobody")
                .with_help("write `hidden` (nobody sees it) with a `visible when` condition, or make it a `player secret var`"),
        );
    }

    /// Warns of `visible when` on `internal` bookkeeping, which no view shows to anyone.
    fn internal_visible_when(
        &mut self,
        name: &ast::Name,
        vis: ast::Visibility,
        when: Option<&ast::Expr>,
    ) {
        let (ast::Visibility::Internal, Some(w)) = (vis, when) else {
            return;
        };
        self.error(
            Diagnostic::warning(
                "visible-internal",
                format!(
                    "`{}` is internal: no view shows it, whatever `visible when` says",
                    name.text
                ),
                w.span,
            )
            .with_label("never used")
            .with_help(
                "drop `visible when`, or write `hidden ... visible when` to show it to some",
            ),
        );
    }

    /// The bounds of `int in lo..hi` for each player count the game allows (indexed by the
    /// count), when they follow it; empty when they are constant or not bounds at all.
    fn bounds_by_players(&self, t: &ast::TypeExpr) -> Vec<Option<(i64, i64)>> {
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
    fn widest_by_players(&mut self, b: &ast::Expr) -> Option<(i64, i64)> {
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
                _ => {
                    let candidates = self
                        .symbols
                        .iter()
                        .filter(|(_, (s, _))| matches!(s, Symbol::Enum(_) | Symbol::Kind(_)))
                        .map(|(k, _)| k.as_str())
                        .chain(["int", "bool", "player"]);
                    let mut d = Diagnostic::error(
                        "unknown-type",
                        format!("unknown type `{}`", n.text),
                        n.span,
                    )
                    .with_label("not a type");
                    d = match suggest(&n.text, candidates) {
                        Some(s) => d.with_suggestion(&s),
                        None => d.with_help("types are int, bool, player, list of T, and the names of enums and kinds"),
                    };
                    self.error(d);
                    (Type::Error, None)
                }
            },
        }
    }

    /// `score(p) = ...` or `goal(p) = ...` checked (an `int`, `what` in the message) and
    /// lowered, the player in slot 0.
    fn end_of_a_player(&mut self, s: &ast::ScoreDecl, what: &str) -> ir::EndFn {
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

    /// Pass 3: every body, checked and lowered.
    fn bodies(&mut self) {
        let merged = self.merged;
        let (mut g, mut pv, mut k, mut df) = (0usize, 0usize, 0usize, 0usize);
        let mut tables = 0;
        let mut flow = None;
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
                    self.current = Some(sym);
                    let mut scope = Scope::new(false);
                    let (init, ty) = self.expr(&v.init, &mut scope);
                    let target = if v.per_player {
                        &self.program.player_vars[slot]
                    } else {
                        &self.program.globals[slot]
                    };
                    let want = target.ty.clone();
                    self.expect_type(&want, &ty, v.init.span, "the initial value");
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
                        target.visible_when = Some(visible);
                    }
                    // Initial values may use comprehensions; the engine gives them a frame.
                    self.note_init_locals(scope.max_slots());
                }
                ast::Decl::Kind(kd) => {
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
                        self.expect_type(
                            &Type::Bool,
                            &ty,
                            listed.span,
                            "the `listed when` condition",
                        );
                        self.program.kinds[k].listed = Some(ir::EndFn {
                            locals: listed_scope.max_slots(),
                            body: cond,
                        });
                    }
                    // Field initial values may use `index`, the instance's number from 1.
                    let index = scope.shadow("index", Type::Int, kd.name.span);
                    self.program.kinds[k].index_slot = Some(index);
                    for (i, fd) in kd.fields.iter().enumerate() {
                        let (init, ty) = self.expr(&fd.init, &mut scope);
                        let visible = fd.visible_when.as_ref().map(|c| {
                            self.visibility_condition(c, "it", Type::Entity(kind_id), kd.name.span)
                        });
                        if let Some(field) = self.program.kinds[k].fields.get(i) {
                            let want = field.ty.clone();
                            self.expect_type(&want, &ty, fd.init.span, "the initial value");
                            self.program.kinds[k].fields[i].init = init;
                            self.program.kinds[k].fields[i].visible_when = visible;
                        }
                    }
                    self.note_init_locals(scope.max_slots());
                    k += 1;
                }
                ast::Decl::Def(d) => {
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
                    df += 1;
                }
                ast::Decl::Effect(p) | ast::Decl::Phase(p) => {
                    let Some(id) = self.own_proc(p) else {
                        continue; // a duplicate, already reported
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
                ast::Decl::Scenario(sc) => self.scenario(sc),
                ast::Decl::Invariant(inv) => {
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
                ast::Decl::Table(t) => {
                    self.table_rows(ir::TableId(tables), t);
                    tables += 1;
                }
                ast::Decl::Game(_)
                | ast::Decl::Variant(_)
                | ast::Decl::Enum(_)
                | ast::Decl::Die(_) => {}
            }
        }
        if let Some(flow) = flow {
            self.program.flow = flow;
        }
        self.current = None;
    }

    fn note_init_locals(&mut self, n: usize) {
        self.program.init_locals = self.program.init_locals.max(n);
    }

    /// A `visible when` condition: slot 0 is `viewer`, slot 1 the owner (`owner`) or instance (`it`).
    fn visibility_condition(
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
    fn no_secret_params(&mut self, params: &[ast::Param]) {
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

    fn action(&mut self, id: ir::ActionId, a: &ast::ActionDecl) {
        self.current = Some(Symbol::Action(id));
        let mut scope = Scope::new(true);
        let mut params = Vec::new();
        // Ranges written with expressions see `me` only: their slots follow the parameters'.
        let mut range_scope = Scope::new(true);
        for _ in &a.params {
            range_scope.shadow(" ", Type::Error, a.name.span);
        }
        for p in &a.params {
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
            let dynamic = ty == Type::Int
                && bounds.is_none()
                && !matches!(p.ty, ast::TypeExpr::Int { bounds: None, .. });
            let finite = matches!(
                ty,
                Type::Player | Type::Bool | Type::Enum(_) | Type::Entity(_) | Type::Error
            ) || (ty == Type::Int && (bounds.is_some() || dynamic));
            // Every value becomes a move in the list: a range too wide to list is no better.
            let width = bounds.map_or(0, |(lo, hi)| (hi as i128) - (lo as i128) + 1);
            if width > MAX_PARAM_VALUES {
                self.error(
                    Diagnostic::error(
                        "infinite-domain",
                        format!(
                            "parameter `{}` has {width} values, more than players could list",
                            p.name.text
                        ),
                        p.ty.span(),
                    )
                    .with_label(format!("at most {MAX_PARAM_VALUES} values"))
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
            params.push(ir::ActionParam {
                name: p.name.text.clone(),
                ty: ty.clone(),
                bounds,
                secret: p.secret.is_some(),
                range,
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
        let mut requires = Vec::new();
        let mut rest = Vec::new();
        let mut in_head = true;
        for s in &a.body.stmts {
            match &s.kind {
                ast::StmtKind::Require { cond, reason } if in_head => {
                    let (c, ty) = self.expr(cond, &mut scope);
                    self.expect_type(&Type::Bool, &ty, cond.span, "a requirement");
                    let reason = self.text(reason, &mut scope);
                    requires.push(ir::Require {
                        cond: c,
                        reason,
                        span: s.span,
                    });
                }
                _ => {
                    in_head = false;
                    rest.push(s.clone());
                }
            }
        }
        let require_locals = scope.max_slots().max(range_scope.max_slots());
        let body = ast::Block {
            stmts: rest,
            span: a.body.span,
        };
        let body = self.block(&body, &mut scope, false);
        let def = &mut self.program.actions[id.index()];
        def.params = params;
        def.requires = requires;
        def.body = body;
        def.locals = scope.max_slots().max(range_scope.max_slots());
        def.require_locals = require_locals;
        def.plan = ir::MovePlan::of(def);
    }

    /// The ends of a parameter's `int in lo..hi` written with expressions, checked as numbers
    /// that read `me` and the state; how far they reach is proved once every body is checked.
    fn param_range(
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

    fn bind_param(&mut self, scope: &mut Scope, name: &ast::Name, ty: Type) {
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

    /// The element type of a list type; anything else is reported as not a list.
    pub(crate) fn element_of(&mut self, t: &Type, span: Span, what: &str) -> Type {
        match t.element() {
            Some(e) => e,
            None => {
                self.expect_type(&Type::List(Box::new(Type::Error)), t, span, what);
                Type::Error
            }
        }
    }

    /// Reports a type mismatch unless `want` accepts `got`.
    pub(crate) fn expect_type(&mut self, want: &Type, got: &Type, span: Span, what: &str) {
        if !want.accepts(got) {
            self.error(
                Diagnostic::error(
                    "type-mismatch",
                    format!(
                        "{what} should be {}, but this is {}",
                        self.type_name(want),
                        self.type_name(got)
                    ),
                    span,
                )
                .with_label(format!("this is {}", self.type_name(got)))
                .with_help(format!("write {} here", self.type_name(want))),
            );
        }
    }

    /// A type as a designer would say it.
    pub(crate) fn type_name(&self, t: &Type) -> String {
        match t {
            Type::Int => "an int".into(),
            Type::Bool => "a bool".into(),
            Type::Player => "a player".into(),
            Type::Enum(e) => format!("a `{}`", self.program.enums[e.index()].name),
            Type::Entity(k) => format!("a `{}`", self.program.kinds[k.index()].name),
            Type::List(inner) => format!(
                "a list of {}",
                self.type_name(inner)
                    .trim_start_matches("a ")
                    .trim_start_matches("an ")
            ),
            Type::Nothing => "`none`".into(),
            Type::Error => "unknown".into(),
        }
    }

    fn finish(mut self) -> ir::Program {
        let remembered = ir::memo::remembered(&self.program.defs);
        for (def, r) in self.program.defs.iter_mut().zip(remembered) {
            def.remembered = r;
        }
        let variables = ir::memo::Variables::of(&self.program);
        let reads = ir::memo::reads(&self.program.defs, &variables);
        for (def, r) in self.program.defs.iter_mut().zip(reads) {
            def.reads = r;
        }
        self.program.variables = variables;
        // A score that visits lists is remembered: scoring at the end calls it, so that a
        // rule that asks `score(p)` again (the winners' ranking) finds it remembered.
        if let (Some(id), Some(score)) = (self.score_def, self.program.score.as_mut()) {
            if self.program.defs[id.index()].remembered {
                let span = score.body.span;
                let me = ir::Expr::new(ir::ExprKind::Local(0), span);
                score.body = ir::Expr::new(ir::ExprKind::Call(id, vec![me]), span);
                score.locals = score.locals.max(1);
            }
        }
        self.program
    }
}

fn placeholder_var(v: &ast::VarDecl) -> ir::VarDef {
    ir::VarDef {
        name: v.name.text.clone(),
        ty: Type::Error,
        bounds: None,
        bounds_by_players: Vec::new(),
        visibility: v.visibility,
        init: const_expr(ir::Value::None, v.init.span),
        visible_when: None,
        span: v.name.span,
    }
}

pub(crate) fn const_expr(v: ir::Value, span: Span) -> ir::Expr {
    ir::Expr::new(ir::ExprKind::Const(v), span)
}

/// The span that best stands for a declaration.
pub fn decl_span(d: &ast::Decl) -> Span {
    match d {
        ast::Decl::Game(g) => g.span,
        ast::Decl::Variant(v) => v.span,
        other => other.part().map(|(_, n)| n.span).unwrap_or_default(),
    }
}
