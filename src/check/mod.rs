//! The checker: resolves names, checks types, runs lints and lowers a merged rules file to the
//! [`ir::Program`] the engine runs.
//!
//! Invariant: it collects every problem in a file, never only the first; a program is produced
//! only when there are no errors. It never runs a game.

mod asked;
mod bodies;
mod cap;
mod consts;
mod declare;
mod drawn;
mod expr;
mod hidden;
pub mod index;
mod init_order;
mod kind_rows;
mod lints;
mod map_keys;
mod map_values;
mod maps;
mod matching;
mod parts;
mod ranges;
mod records;
mod scenario;
mod scope;
mod sections;
mod sets;
mod several;
mod shows;
mod signatures;
mod stmt;
mod tables;

use crate::diag::{Diagnostic, Diagnostics, SourceMap, Span};
use crate::ir::{self, Type};
use crate::syntax::ast;
use scope::{suggest, Scope, Symbol};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Values of one enum: each is held as a 16-bit index.
const MAX_ENUM_VALUES: usize = u16::MAX as usize + 1;
/// Parameters of one action: the engine lists moves with a fixed odometer of this size.
pub const MAX_PARAMS: usize = crate::ir::MAX_PARAMS;

/// The words `meeple play` reads as commands.
pub use lints::COMMAND_WORDS;
/// How many sets a set parameter's values make (the engine builds them).
pub(crate) use sets::combinations;

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
    checker.bound_param_ranges(i128::from(ir::MAX_PARAM_VALUES));
    checker.order_initial_values();
    lints::run(&mut checker);
    hidden::run(&mut checker);
    shows::run(&mut checker);
    parts::run(&mut checker);
    drawn::run(&mut checker);
    sections::run(&mut checker);
    let hidden_passes = asked::mark(&mut checker.program);
    checker.refuse_hidden_passes(hidden_passes);
    let diags = Diagnostics(std::mem::take(&mut checker.diags).finish());
    let index = checker
        .index
        .take()
        .map(|b| b.finish(&checker.program, &checker.def_sigs, &checker.proc_sigs));
    if diags.has_errors() {
        return (None, diags, index);
    }
    (Some(checker.finish()), diags, index)
}

pub use cap::MAX_PER_CODE;

/// State of one check: symbol tables, the program under construction and the problems found.
pub(crate) struct Checker<'a> {
    merged: &'a Merged,
    diags: cap::Capped,
    // Hashed, not ordered: a file may declare half a million names, each looked up as it is
    // declared and used. Where names are listed (suggestions), they are sorted first.
    symbols: HashMap<String, (Symbol, Span)>,
    player_vars: HashMap<String, ir::PlayerVarId>,
    /// Actions live in their own namespace: only `turn ... only` names them.
    actions: HashMap<String, ir::ActionId>,
    /// Where each player variable and action is declared, for duplicate reports.
    own_spans: HashMap<(bool, String), Span>,
    used: BTreeSet<Symbol>,
    /// Procedures and actions referenced from each body, for reachability.
    calls: BTreeMap<Symbol, BTreeSet<Symbol>>,
    current: Option<Symbol>,
    players: (i64, i64),
    /// The player count of the scenario being checked (its `players` step, or the game's
    /// fewest), which sizes a map by player written out in a `set`.
    scenario_players: Option<i64>,
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
    /// Each record's defaults, worked out when first needed.
    record_defaults: Vec<records::Defaults>,
    /// Where each record's fields are declared, for editors.
    record_spans: Vec<Vec<Span>>,
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
            diags: cap::Capped::default(),
            // Most declarations are named: sized once, not grown by rehashing.
            symbols: HashMap::with_capacity(merged.decls.len()),
            player_vars: HashMap::new(),
            actions: HashMap::new(),
            own_spans: HashMap::new(),
            used: BTreeSet::new(),
            calls: BTreeMap::new(),
            current: None,
            players: (1, 1),
            scenario_players: None,
            depth: 0,
            too_deep_reported: false,
            loops: 0,
            score_def: None,
            proc_sigs: Vec::new(),
            def_sigs: Vec::new(),
            index: None,
            record_defaults: Vec::new(),
            record_spans: Vec::new(),
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
                records: Vec::new(),
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
                shows: Vec::new(),
                sections: Vec::new(),
                scenarios: Vec::new(),
                sources: merged.sources.clone(),
                init_locals: 0,
                key_ranges: Vec::new(),
                init_order: Vec::new(),
                veiled_reads: Default::default(),
                variables: Default::default(),
            },
        }
    }

    /// `window-hidden-pass` for each window whose closing action's legality reads a value
    /// some seat may not see, as (the window, where it reads it).
    fn refuse_hidden_passes(&mut self, found: Vec<(Span, Span)>) {
        for (window, read) in found {
            self.error(
                Diagnostic::error(
                    "window-hidden-pass",
                    "a seat may be passed over in this window for a reason the others cannot see",
                    window,
                )
                .with_label("a seat with no legal move is passed over, in sight of all")
                .with_secondary(
                    read,
                    "the closing action's legality reads a value some seat may not see",
                )
                .with_help(
                    "let the closing action be legal whatever the secrets are (a requirement on \
                     public values only, or none): a seat that may always decline is always asked",
                ),
            );
        }
    }

    pub(crate) fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Reports the warning `build` makes, building it only if it will be shown.
    pub(crate) fn warn_lazily(
        &mut self,
        code: &'static str,
        span: Span,
        build: impl FnOnce() -> Diagnostic,
    ) {
        if !self.diags.count_if_past(code, span, false) {
            self.error(build());
        }
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
        let callable = matches!(symbol, Symbol::Def(_) | Symbol::Proc(_) | Symbol::Record(_));
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

    /// The names of the symbols `keep` accepts, in order, for suggestions.
    pub(crate) fn symbol_names(&self, keep: impl Fn(&Symbol) -> bool) -> Vec<String> {
        let mut names: Vec<String> = self
            .symbols
            .iter()
            .filter(|(_, (s, _))| keep(s))
            .map(|(k, _)| k.clone())
            .collect();
        names.sort();
        names
    }

    /// `x in xs where c`, as `for` and a text's `each` open: the list, the slot `x` is bound
    /// to in a new block of `scope` (the caller pops it after the body), and the condition.
    pub(crate) fn loop_binding(
        &mut self,
        var: &ast::Name,
        source: &ast::Expr,
        filter: Option<&ast::Expr>,
        scope: &mut Scope,
        what: &str,
    ) -> (ir::Expr, ir::Slot, Option<ir::Expr>) {
        let (src, st) = self.expr(source, scope);
        let elem = self.element_of(&st, source.span, what);
        scope.push();
        let slot = self.bind_local(scope, var, elem);
        let filter = filter.map(|f| {
            let (x, t) = self.expr(f, scope);
            self.expect_type(&Type::Bool, &t, f.span, "the `where` condition");
            x
        });
        (src, slot, filter)
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
            Type::Record(r) => format!("a `{}`", self.program.records[r.index()].name),
            Type::List(inner) => format!(
                "a list of {}",
                self.type_name(inner)
                    .trim_start_matches("a ")
                    .trim_start_matches("an ")
            ),
            Type::Map(inner, k) => format!(
                "a map of {} by {}",
                self.type_name(inner)
                    .trim_start_matches("a ")
                    .trim_start_matches("an "),
                self.map_keys_name(*k)
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
        visible_part: None,
        shown_when: None,
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
        ast::Decl::Section(s) => s.span,
        other => other.part().map(|(_, n)| n.span).unwrap_or_default(),
    }
}
