//! Lowering of pest pairs to the AST: one function per grammar rule.

use super::ast::*;
use super::Rule;
use crate::diag::{Diagnostic, FileId, Span};
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::cell::RefCell;
use std::sync::OnceLock;

/// Turns pairs into AST nodes, collecting the few errors the grammar cannot rule out.
pub(super) struct Lowerer {
    file: FileId,
    /// Where in the file the text being lowered starts: an item parsed on its own is parsed
    /// from there, and its pairs count from there.
    base: usize,
    errors: RefCell<Vec<Diagnostic>>,
}

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::op_or, Assoc::Left))
            .op(Op::infix(Rule::op_and, Assoc::Left))
            .op(Op::prefix(Rule::op_not))
            .op(Op::infix(Rule::op_eq, Assoc::Left)
                | Op::infix(Rule::op_ne, Assoc::Left)
                | Op::infix(Rule::op_lt, Assoc::Left)
                | Op::infix(Rule::op_le, Assoc::Left)
                | Op::infix(Rule::op_gt, Assoc::Left)
                | Op::infix(Rule::op_ge, Assoc::Left)
                | Op::infix(Rule::op_in, Assoc::Left)
                | Op::infix(Rule::op_notin, Assoc::Left))
            .op(Op::infix(Rule::op_range, Assoc::Left))
            .op(Op::infix(Rule::op_add, Assoc::Left) | Op::infix(Rule::op_sub, Assoc::Left))
            .op(Op::infix(Rule::op_mul, Assoc::Left)
                | Op::infix(Rule::op_div, Assoc::Left)
                | Op::infix(Rule::op_mod, Assoc::Left))
            .op(Op::prefix(Rule::op_neg))
            .op(Op::postfix(Rule::field_access) | Op::postfix(Rule::index))
    })
}

impl Lowerer {
    pub(super) fn new(file: FileId) -> Lowerer {
        Lowerer {
            file,
            base: 0,
            errors: RefCell::new(Vec::new()),
        }
    }

    pub(super) fn into_errors(self) -> Vec<Diagnostic> {
        self.errors.into_inner()
    }

    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        Span::new(self.file, self.base + s.start(), self.base + s.end())
    }

    /// A word as written, with its span.
    fn word(&self, pair: &Pair<Rule>) -> Name {
        Name {
            text: pair.as_str().to_string(),
            span: self.span(pair),
        }
    }

    /// A name; a reserved word in its place is an error (the grammar takes any word).
    fn name(&self, pair: Pair<Rule>) -> Name {
        let name = self.word(&pair);
        let text = &name.text;
        if super::is_reserved(text) {
            self.errors.borrow_mut().push(
                Diagnostic::error(
                    "syntax-error",
                    format!("expected a name, found `{text}`, a reserved word"),
                    name.span,
                )
                .with_label("a reserved word cannot name anything")
                .with_help(
                    "reserved words are listed in `meeple help language` (Names); choose another name",
                ),
            );
        }
        name
    }

    pub(super) fn file(&mut self, mut pairs: Pairs<Rule>) -> File {
        let file = pairs.next().expect("grammar: file");
        let items = file
            .into_inner()
            .filter(|p| p.as_rule() == Rule::item)
            .map(|p| self.item(p))
            .collect();
        File {
            items: super::section::flatten(items),
        }
    }

    /// Lowers items parsed on their own (`Rule::next_items`) from `base` in the file, into
    /// `items`, and where each starts into `starts`; true if they end the file.
    pub(super) fn items_at(
        &mut self,
        mut pairs: Pairs<Rule>,
        base: usize,
        items: &mut Vec<Item>,
        starts: &mut Vec<usize>,
    ) -> bool {
        self.base = base;
        let mut at_end = false;
        for p in pairs.next().expect("grammar: next_items").into_inner() {
            match p.as_rule() {
                Rule::item => {
                    starts.push(base + p.as_span().start());
                    items.push(self.item(p));
                }
                Rule::EOI => at_end = true,
                _ => {}
            }
        }
        at_end
    }

    fn item(&self, pair: Pair<Rule>) -> Item {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let first = inner.next().expect("grammar: item");
        match first.as_rule() {
            Rule::patch_remove => {
                let mut p = first.into_inner();
                p.next(); // kw_remove
                let kind_pair = p.next().expect("grammar: part kind");
                let name = if kind_pair.as_rule() == Rule::part_single {
                    // A singleton part is named by its keyword, as its declaration is.
                    self.name(
                        kind_pair
                            .clone()
                            .into_inner()
                            .next()
                            .expect("grammar: keyword"),
                    )
                } else {
                    self.name(p.next().expect("grammar: name"))
                };
                let kind = self.part_kind(kind_pair);
                Item::Remove { kind, name, span }
            }
            Rule::section_decl => Item::Decl {
                patch: None,
                decl: Decl::Section(self.section_decl(first)),
            },
            Rule::patch => {
                let kw = first.into_inner().next().expect("grammar: patch keyword");
                let patch = match kw.as_rule() {
                    Rule::kw_add => Patch::Add,
                    _ => Patch::Replace,
                };
                let pspan = self.span(&kw);
                let decl = self.decl(inner.next().expect("grammar: decl"));
                Item::Decl {
                    patch: Some((patch, pspan)),
                    decl,
                }
            }
            _ => Item::Decl {
                patch: None,
                decl: self.decl(first),
            },
        }
    }

    /// A section with what is written inside as items of its own, flattened later
    /// (`section::flatten`).
    fn section_decl(&self, pair: Pair<Rule>) -> SectionDecl {
        let span = self.span(&pair);
        let mut inner = pair.into_inner().skip(1); // kw_section
        let heading = self.text(inner.next().expect("grammar: section heading"));
        let mut inner = inner.peekable();
        let table = inner
            .next_if(|p| p.as_rule() == Rule::section_table)
            .map(|p| self.span(&p));
        SectionDecl {
            heading,
            span,
            entries: Vec::new(),
            others: Vec::new(),
            within: None,
            table,
            items: inner.map(|p| self.item(p)).collect(),
        }
    }

    fn part_kind(&self, pair: Pair<Rule>) -> PartKind {
        let kw = pair.into_inner().next().expect("grammar: part kind");
        match kw.as_rule() {
            Rule::kw_var => PartKind::Var,
            Rule::kw_kind => PartKind::Kind,
            Rule::kw_enum => PartKind::Enum,
            Rule::kw_die => PartKind::Die,
            Rule::kw_table => PartKind::Table,
            Rule::kw_def => PartKind::Def,
            Rule::kw_effect => PartKind::Effect,
            Rule::kw_action => PartKind::Action,
            Rule::kw_phase => PartKind::Phase,
            Rule::kw_flow => PartKind::Flow,
            Rule::kw_setup => PartKind::Setup,
            Rule::kw_score => PartKind::Score,
            Rule::kw_goal => PartKind::Goal,
            Rule::kw_invariant => PartKind::Invariant,
            Rule::kw_show => PartKind::Show,
            _ => PartKind::Winners,
        }
    }

    fn decl(&self, pair: Pair<Rule>) -> Decl {
        match pair.as_rule() {
            Rule::game_decl => Decl::Game(self.game_decl(pair)),
            Rule::variant_decl => Decl::Variant(self.variant_decl(pair)),
            Rule::enum_decl => Decl::Enum(self.enum_decl(pair)),
            Rule::var_decl => Decl::Var(self.var_decl(pair)),
            Rule::kind_decl => Decl::Kind(self.kind_decl(pair)),
            Rule::record_decl => Decl::Record(self.record_decl(pair)),
            Rule::table_decl => Decl::Table(self.table_decl(pair)),
            Rule::die_decl => Decl::Die(self.die_decl(pair)),
            Rule::def_decl => Decl::Def(self.def_decl(pair)),
            Rule::effect_decl => Decl::Effect(self.proc_decl(pair)),
            Rule::action_decl => Decl::Action(self.action_decl(pair)),
            Rule::phase_decl => Decl::Phase(self.proc_decl(pair)),
            Rule::flow_decl => Decl::Flow(self.block_decl(pair)),
            Rule::setup_decl => Decl::Setup(self.block_decl(pair)),
            Rule::score_decl => Decl::Score(self.score_decl(pair)),
            Rule::goal_decl => Decl::Goal(self.score_decl(pair)),
            Rule::winners_decl => Decl::Winners(self.winners_decl(pair)),
            Rule::scenario_decl => Decl::Scenario(self.scenario_decl(pair)),
            Rule::show_decl => {
                let mut per_player = false;
                let mut name = None;
                let mut value = None;
                let mut shown_when = None;
                for p in pair.into_inner() {
                    match p.as_rule() {
                        Rule::shown_when => shown_when = Some(self.expr(last(p))),
                        Rule::per_player => per_player = true,
                        Rule::name => name = Some(self.name(p)),
                        Rule::expr => value = Some(ShowValue::Expr(self.expr(p))),
                        Rule::string => value = Some(ShowValue::Text(self.text(p))),
                        _ => {}
                    }
                }
                Decl::Show(ShowDecl {
                    name: name.expect("grammar: show name"),
                    per_player,
                    value: value.expect("grammar: show value"),
                    shown_when,
                })
            }
            Rule::invariant_decl => {
                let mut inner = pair.into_inner().skip(1);
                let name = self.name(inner.next().expect("grammar: invariant name"));
                let mut description = None;
                let mut cond = None;
                for p in inner {
                    match p.as_rule() {
                        Rule::string => description = Some(self.text(p)),
                        _ => cond = Some(self.expr(p)),
                    }
                }
                Decl::Invariant(InvariantDecl {
                    name,
                    description,
                    cond: cond.expect("grammar: invariant condition"),
                })
            }
            r => unreachable!("grammar: unexpected declaration {r:?}"),
        }
    }

    fn scenario_decl(&self, pair: Pair<Rule>) -> ScenarioDecl {
        let span = self.span(&pair);
        let mut inner = pair.into_inner().skip(1);
        let title = self.text(inner.next().expect("grammar: scenario title"));
        let steps = inner.map(|p| self.step(p)).collect();
        ScenarioDecl { title, steps, span }
    }

    fn step(&self, pair: Pair<Rule>) -> Step {
        // Up to the end of its last part: whitespace that a step's optional tail tried and left
        // is not part of it.
        let mut span = self.span(&pair);
        if let Some(last) = pair.clone().into_inner().last() {
            let tail = &pair.as_str()[last.as_span().end() - pair.as_span().start()..];
            if tail
                .lines()
                .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
            {
                span.end = (self.base + last.as_span().end()) as u32;
            }
        }
        let rule = pair.as_rule();
        let mut inner = pair.into_inner().skip(1);
        let kind = match rule {
            Rule::step_players => {
                StepKind::Players(self.expr(inner.next().expect("grammar: count")))
            }
            Rule::step_seed => StepKind::Seed(self.expr(inner.next().expect("grammar: seed"))),
            Rule::step_play => {
                let mut seat = None;
                let mut moves = Vec::new();
                for p in inner {
                    match p.as_rule() {
                        Rule::string => moves.push(self.text(p)),
                        _ => seat = Some(self.expr(p)),
                    }
                }
                StepKind::Play { seat, moves }
            }
            Rule::step_run => {
                let cond = inner
                    .find(|p| p.as_rule() == Rule::expr)
                    .expect("grammar: until");
                StepKind::RunUntil(self.expr(cond))
            }
            Rule::step_set => {
                let mut inner = inner.peekable();
                let (place, index) = self.place_and_steps(&mut inner);
                StepKind::Set {
                    place,
                    index,
                    value: self.expr(inner.next().expect("grammar: value")),
                }
            }
            Rule::step_move => self.move_step(inner),
            Rule::step_let => {
                let name = self.name(inner.next().expect("grammar: name"));
                StepKind::Let {
                    name,
                    value: self.expr(inner.next().expect("grammar: value")),
                }
            }
            Rule::step_expect_winners => {
                let e = inner
                    .find(|p| p.as_rule() == Rule::expr)
                    .expect("grammar: winners");
                StepKind::ExpectWinners(self.expr(e))
            }
            Rule::step_expect => StepKind::Expect(self.expr(inner.next().expect("grammar: cond"))),
            Rule::step_expect_refused => self.refused_step(inner),
            Rule::step_expect_over => {
                StepKind::ExpectOver(inner.next().is_some_and(|p| p.as_rule() == Rule::kw_game))
            }
            Rule::step_rolls => StepKind::Rolls(inner.map(|p| self.expr(p)).collect()),
            Rule::step_picks => StepKind::Picks(inner.map(|p| self.expr(p)).collect()),
            Rule::step_shuffles => {
                StepKind::Shuffles(self.expr(inner.next().expect("grammar: order")))
            }
            Rule::step_before => StepKind::BeforeSetup(
                inner
                    .filter(|p| p.as_rule() != Rule::kw_setup)
                    .map(|p| self.step(p))
                    .collect(),
            ),
            _ => StepKind::Finish,
        };
        Step { kind, span }
    }

    /// `move c from P2.hand to deck at 1`: the item, where from (if given), where to and at.
    fn move_step<'a>(&self, mut inner: impl Iterator<Item = Pair<'a, Rule>>) -> StepKind {
        let item = self.expr(inner.next().expect("grammar: item"));
        let (mut from, mut to, mut at) = (None, None, None);
        while let Some(p) = inner.next() {
            match p.as_rule() {
                Rule::kw_from => from = inner.next().map(|p| self.place(p)),
                Rule::kw_to => to = inner.next().map(|p| self.place(p)),
                Rule::kw_at => at = inner.next().map(|p| self.expr(p)),
                _ => {}
            }
        }
        StepKind::Move {
            item,
            from,
            to: to.expect("grammar: destination"),
            at,
        }
    }

    /// `expect refused P1 "move" because "why"`.
    fn refused_step<'a>(&self, inner: impl Iterator<Item = Pair<'a, Rule>>) -> StepKind {
        let mut seat = None;
        let mut texts = Vec::new();
        for p in inner {
            match p.as_rule() {
                Rule::string => texts.push(self.text(p)),
                Rule::expr => seat = Some(self.expr(p)),
                _ => {}
            }
        }
        let mut texts = texts.into_iter();
        StepKind::ExpectRefused {
            seat,
            mv: texts.next().expect("grammar: move"),
            because: texts.next(),
        }
    }

    fn game_decl(&self, pair: Pair<Rule>) -> GameDecl {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        inner.next(); // kw_game
        let title = self.text(inner.next().expect("grammar: title"));
        let mut decl = GameDecl {
            title,
            players: None,
            source: None,
            seats: Vec::new(),
            always_ask: false,
            span,
        };
        for prop in inner {
            let p = prop.into_inner().next().expect("grammar: game prop");
            match p.as_rule() {
                Rule::prop_players => decl.players = Some(self.expr(last(p))),
                Rule::prop_source => decl.source = Some(self.text(last(p))),
                Rule::prop_always_ask => decl.always_ask = true,
                Rule::prop_seats => {
                    decl.seats = p
                        .into_inner()
                        .filter(|s| s.as_rule() == Rule::string)
                        .map(|s| self.text(s))
                        .collect()
                }
                _ => {}
            }
        }
        decl
    }

    fn variant_decl(&self, pair: Pair<Rule>) -> VariantDecl {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        inner.next(); // kw_variant
        let title = self.text(inner.next().expect("grammar: title"));
        let mut decl = VariantDecl {
            title,
            base: None,
            excludes: Vec::new(),
            span,
        };
        for prop in inner {
            let p = prop.into_inner().next().expect("grammar: variant prop");
            match p.as_rule() {
                Rule::prop_base => decl.base = Some(self.text(last(p))),
                _ => decl.excludes.push(self.text(last(p))),
            }
        }
        decl
    }

    fn enum_decl(&self, pair: Pair<Rule>) -> EnumDecl {
        let mut inner = pair.into_inner().filter(|p| p.as_rule() != Rule::kw_enum);
        let name = self.name(inner.next().expect("grammar: enum name"));
        let mut values = Vec::new();
        let mut shown = Vec::new();
        for v in inner.filter(|p| p.as_rule() == Rule::enum_value) {
            let mut parts = v.into_inner();
            values.push(self.name(parts.next().expect("grammar: enum value")));
            shown.push(parts.next().map(|l| self.text(last(l))));
        }
        EnumDecl {
            name,
            values,
            shown,
        }
    }

    fn visibility(&self, pair: Pair<Rule>) -> Visibility {
        match pair.into_inner().next().map(|p| p.as_rule()) {
            Some(Rule::kw_secret) => Visibility::Secret,
            Some(Rule::kw_hidden) => Visibility::Hidden,
            Some(Rule::kw_internal) => Visibility::Internal,
            _ => Visibility::Public,
        }
    }

    fn var_decl(&self, pair: Pair<Rule>) -> VarDecl {
        let mut per_player = false;
        let mut visibility = Visibility::Public;
        let mut name = None;
        let mut ty = None;
        let mut init = None;
        let mut visible_when = None;
        let mut visible_part = None;
        let mut shown_when = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::per_player => per_player = true,
                Rule::visibility => visibility = self.visibility(p),
                Rule::name => name = Some(self.name(p)),
                Rule::type_expr => ty = Some(self.type_expr(p)),
                Rule::expr => init = Some(self.expr(p)),
                Rule::visible_when => visible_when = Some(Box::new(self.expr(last(p)))),
                Rule::visible_part => visible_part = Some(Box::new(self.visible_part(p))),
                Rule::shown_when => shown_when = Some(Box::new(self.expr(last(p)))),
                _ => {}
            }
        }
        VarDecl {
            visible_when,
            visible_part,
            shown_when,
            name: name.expect("grammar: var name"),
            per_player,
            visibility,
            ty: ty.expect("grammar: var type"),
            init: init.expect("grammar: var init"),
        }
    }

    fn visible_part(&self, pair: Pair<Rule>) -> VisiblePart {
        let mut inner = pair.into_inner();
        let visible = self.span(&inner.next().expect("grammar: kw_visible"));
        let end = match inner.next().map(|p| p.as_str()) {
            Some("first") => End::First,
            _ => End::Last,
        };
        let count = self.expr(inner.next().expect("grammar: visible part count"));
        // From `visible` to the count's end: the rule's own span runs on over the blank after.
        let span = visible.to(count.span);
        VisiblePart { end, count, span }
    }

    fn kind_decl(&self, pair: Pair<Rule>) -> KindDecl {
        let mut inner = pair.into_inner();
        inner.next(); // kw_kind
        let name = self.name(inner.next().expect("grammar: kind name"));
        let c = inner.next().expect("grammar: kind count");
        let count = match c.as_rule() {
            Rule::kind_names => KindCount::Named(
                c.into_inner()
                    .filter(|p| p.as_rule() == Rule::name)
                    .map(|p| self.name(p))
                    .collect(),
            ),
            Rule::kind_rows => {
                let mut names = c.into_inner().filter(|p| p.as_rule() == Rule::name);
                let table = self.name(names.next().expect("grammar: a table's name"));
                let copies = names.next().map(|p| self.name(p));
                KindCount::Rows { table, copies }
            }
            _ => KindCount::Count(self.expr(c)),
        };
        let mut label = None;
        let mut listed = None;
        let mut fields = Vec::new();
        for p in inner {
            match p.as_rule() {
                Rule::kind_label => label = Some(self.text(last(p))),
                Rule::kind_listed => listed = Some(self.expr(last(p))),
                _ => fields.push(self.field_decl(p)),
            }
        }
        KindDecl {
            label,
            listed,
            name,
            count,
            fields,
        }
    }

    fn record_decl(&self, pair: Pair<Rule>) -> RecordDecl {
        let mut inner = pair.into_inner();
        inner.next(); // kw_record
        let name = self.name(inner.next().expect("grammar: record name"));
        let mut label = None;
        let mut fields = Vec::new();
        for p in inner {
            match p.as_rule() {
                Rule::kind_label => label = Some(self.text(last(p))),
                _ => fields.push(self.record_field(p)),
            }
        }
        RecordDecl {
            name,
            label,
            fields,
        }
    }

    fn record_field(&self, pair: Pair<Rule>) -> RecordField {
        let mut visibility = Visibility::Public;
        let mut name = None;
        let mut ty = None;
        let mut default = None;
        let mut visible_when = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::visibility => visibility = self.visibility(p),
                Rule::name => name = Some(self.name(p)),
                Rule::type_expr => ty = Some(self.type_expr(p)),
                Rule::expr => default = Some(self.expr(p)),
                Rule::visible_when => visible_when = Some(Box::new(self.expr(last(p)))),
                _ => {}
            }
        }
        RecordField {
            name: name.expect("grammar: field name"),
            ty: ty.expect("grammar: field type"),
            default,
            visibility,
            visible_when,
        }
    }

    fn field_decl(&self, pair: Pair<Rule>) -> FieldDecl {
        let mut visibility = Visibility::Public;
        let mut name = None;
        let mut ty = None;
        let mut init = None;
        let mut visible_when = None;
        let mut visible_part = None;
        let mut shown_when = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::visibility => visibility = self.visibility(p),
                Rule::name => name = Some(self.name(p)),
                Rule::type_expr => ty = Some(self.type_expr(p)),
                Rule::expr => init = Some(self.expr(p)),
                Rule::visible_when => visible_when = Some(Box::new(self.expr(last(p)))),
                Rule::visible_part => visible_part = Some(Box::new(self.visible_part(p))),
                Rule::shown_when => shown_when = Some(Box::new(self.expr(last(p)))),
                _ => {}
            }
        }
        FieldDecl {
            visible_when,
            visible_part,
            shown_when,
            name: name.expect("grammar: field name"),
            visibility,
            ty: ty.expect("grammar: field type"),
            init: init.expect("grammar: field init"),
        }
    }

    fn table_decl(&self, pair: Pair<Rule>) -> TableDecl {
        let mut inner = pair.into_inner();
        inner.next(); // kw_table
        let name = self.name(inner.next().expect("grammar: table name"));
        let columns = self.params(inner.next().expect("grammar: table columns"));
        let rows = inner
            .map(|row| TableRow {
                span: self.span(&row),
                cells: row.into_inner().map(|c| self.expr(c)).collect(),
            })
            .collect();
        TableDecl {
            name,
            columns,
            rows,
        }
    }

    fn die_decl(&self, pair: Pair<Rule>) -> DieDecl {
        let mut inner = pair.into_inner();
        inner.next(); // kw_die
        DieDecl {
            name: self.name(inner.next().expect("grammar: die name")),
            faces: self.expr(inner.next().expect("grammar: die faces")),
        }
    }

    fn params(&self, pair: Pair<Rule>) -> Vec<Param> {
        pair.into_inner()
            .map(|p| {
                let mut inner = p.into_inner().peekable();
                let name = self.name(inner.next().expect("grammar: param name"));
                let count = inner
                    .next_if(|p| p.as_rule() == Rule::choose_count)
                    .map(|p| self.choose_count(p));
                Param {
                    name,
                    ty: self.type_expr(inner.next().expect("grammar: param type")),
                    count,
                    secret: inner.next().map(|s| self.span(&s)),
                }
            })
            .collect()
    }

    fn def_decl(&self, pair: Pair<Rule>) -> DefDecl {
        let mut inner = pair.into_inner();
        inner.next(); // kw_def
        DefDecl {
            name: self.name(inner.next().expect("grammar: def name")),
            params: self.params(inner.next().expect("grammar: params")),
            ret: self.type_expr(inner.next().expect("grammar: def type")),
            body: self.expr(inner.next().expect("grammar: def body")),
        }
    }

    fn proc_decl(&self, pair: Pair<Rule>) -> ProcDecl {
        let mut inner = pair.into_inner();
        inner.next(); // kw_effect / kw_phase
        let name = self.name(inner.next().expect("grammar: name"));
        let mut params = Vec::new();
        let mut body = None;
        for p in inner {
            match p.as_rule() {
                Rule::params => params = self.params(p),
                Rule::block => body = Some(self.block(p)),
                _ => {}
            }
        }
        ProcDecl {
            name,
            params,
            body: body.expect("grammar: body"),
        }
    }

    fn action_decl(&self, pair: Pair<Rule>) -> ActionDecl {
        let mut inner = pair.into_inner();
        inner.next(); // kw_action
        let name = self.name(inner.next().expect("grammar: action name"));
        let mut decl = ActionDecl {
            name,
            params: Vec::new(),
            description: None,
            last_resort: None,
            body: Block {
                stmts: Vec::new(),
                span: Span::default(),
            },
        };
        for p in inner {
            match p.as_rule() {
                Rule::params => decl.params = self.params(p),
                Rule::string => decl.description = Some(self.text(p)),
                Rule::last_resort => decl.last_resort = Some(self.span(&p)),
                Rule::block => decl.body = self.block(p),
                _ => {}
            }
        }
        decl
    }

    fn block_decl(&self, pair: Pair<Rule>) -> BlockDecl {
        let mut inner = pair.into_inner();
        let kw = inner.next().expect("grammar: keyword");
        BlockDecl {
            keyword: self.name(kw),
            body: self.block(inner.next().expect("grammar: block")),
        }
    }

    fn score_decl(&self, pair: Pair<Rule>) -> ScoreDecl {
        let mut inner = pair.into_inner();
        let kw = self.name(inner.next().expect("grammar: score"));
        ScoreDecl {
            keyword: kw,
            player: self.name(inner.next().expect("grammar: score player")),
            body: self.expr(inner.next().expect("grammar: score body")),
        }
    }

    fn winners_decl(&self, pair: Pair<Rule>) -> WinnersDecl {
        let mut inner = pair.into_inner();
        let kw = self.name(inner.next().expect("grammar: winners"));
        WinnersDecl {
            keyword: kw,
            body: self.expr(inner.next().expect("grammar: winners body")),
        }
    }

    fn type_expr(&self, pair: Pair<Rule>) -> TypeExpr {
        let span = self.span(&pair);
        let t = pair.into_inner().next().expect("grammar: type");
        self.type_part(t, span)
    }

    /// One alternative of `type_expr`; `span` is the whole type's.
    fn type_part(&self, t: Pair<Rule>, span: Span) -> TypeExpr {
        match t.as_rule() {
            // Each `by` wraps the map so far: `int by gem by player` is `(int by gem) by player`.
            Rule::type_map => {
                let mut inner = t.into_inner();
                let elem = inner.next().expect("grammar: map element type");
                let elem_span = self.span(&elem);
                let mut ty = self.type_part(elem, elem_span);
                for key in inner.filter(|p| p.as_rule() == Rule::map_key) {
                    let key = key.into_inner().next().expect("grammar: map key");
                    let key = match key.as_rule() {
                        Rule::kw_player => MapKey::Player(self.span(&key)),
                        _ => match self.expr(key) {
                            Expr {
                                kind: ExprKind::Name(n),
                                ..
                            } => MapKey::Enum(n),
                            e => MapKey::Range(Box::new(e)),
                        },
                    };
                    let level = elem_span.to(key.span());
                    ty = TypeExpr::Map(Box::new(ty), key, level);
                }
                // The outermost level's span is the whole type's.
                if let TypeExpr::Map(_, _, s) = &mut ty {
                    *s = span;
                }
                ty
            }
            Rule::type_list => {
                let inner = t
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::type_elem)
                    .expect("grammar: list element type");
                TypeExpr::List(Box::new(self.type_expr(inner)), span)
            }
            Rule::type_int => TypeExpr::Int {
                bounds: t
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::expr)
                    .map(|e| Box::new(self.expr(e))),
                span,
            },
            Rule::type_bool => TypeExpr::Bool(span),
            Rule::type_player => TypeExpr::Player(span),
            _ => TypeExpr::Named(self.name(t.into_inner().next().expect("grammar: type name"))),
        }
    }

    fn block(&self, pair: Pair<Rule>) -> Block {
        let span = self.span(&pair);
        Block {
            stmts: pair.into_inner().map(|s| self.stmt(s)).collect(),
            span,
        }
    }

    fn stmt(&self, pair: Pair<Rule>) -> Stmt {
        let mut span = self.span(&pair);
        // A statement that may end in an optional part (`pop xs` before an `at i` not
        // written) takes the blank after it along (pest): not the statement's, which the
        // checker and run-time errors point to.
        span.end = span.start + pair.as_str().trim_end().len() as u32;
        let kind = match pair.as_rule() {
            Rule::let_stmt => self.let_stmt(pair),
            Rule::assign_stmt => self.assign_stmt(pair),
            Rule::remove_stmt => self.remove_stmt(pair),
            Rule::if_stmt => self.if_stmt(pair),
            Rule::for_stmt => self.for_stmt(pair),
            Rule::repeat_stmt => {
                let mut inner = pair.into_inner().skip(1);
                StmtKind::Repeat {
                    count: self.expr(inner.next().expect("grammar: count")),
                    body: self.block(inner.next().expect("grammar: body")),
                }
            }
            Rule::while_stmt => {
                let mut inner = pair.into_inner().skip(1);
                StmtKind::While {
                    cond: self.expr(inner.next().expect("grammar: cond")),
                    body: self.block(inner.next().expect("grammar: body")),
                }
            }
            Rule::turn_stmt => self.turn_stmt(pair),
            Rule::window_stmt => self.window_stmt(pair),
            Rule::log_stmt => StmtKind::Log(self.text(last(pair))),
            Rule::tell_stmt => {
                let mut inner = pair.into_inner().skip(1);
                StmtKind::Tell {
                    player: self.expr(inner.next().expect("grammar: player")),
                    text: self.text(inner.next().expect("grammar: text")),
                }
            }
            Rule::require_stmt => {
                let mut inner = pair.into_inner().skip(1);
                let cond = self.expr(inner.next().expect("grammar: cond"));
                inner.next(); // kw_else
                StmtKind::Require {
                    cond,
                    reason: self.text(inner.next().expect("grammar: reason")),
                }
            }
            Rule::reveal_stmt | Rule::conceal_stmt => {
                let shown = pair.as_rule() == Rule::reveal_stmt;
                let mut item = self.expr(last(pair));
                item.span.end = item.span.end.min(span.end);
                StmtKind::Reveal { item, shown }
            }
            Rule::prefer_stmt => {
                let mut value = self.expr(last(pair));
                value.span.end = span.end;
                StmtKind::Prefer(value)
            }
            Rule::end_stmt => self.end_stmt(pair),
            Rule::eliminate_stmt => self.eliminate_stmt(pair),
            Rule::secretly_stmt => self.secretly_stmt(pair),
            Rule::match_stmt => self.match_stmt(pair),
            Rule::return_stmt => StmtKind::Return,
            Rule::break_stmt => StmtKind::Break,
            Rule::continue_stmt => StmtKind::Continue,
            Rule::call_stmt => {
                let mut inner = pair.into_inner();
                StmtKind::Call {
                    name: self.name(inner.next().expect("grammar: name")),
                    args: self.args(inner.next().expect("grammar: args")),
                }
            }
            r => unreachable!("grammar: unexpected statement {r:?}"),
        };
        Stmt { kind, span }
    }

    /// `remove xs at i`, `remove xs[r].cards at i`.
    fn remove_stmt(&self, pair: Pair<Rule>) -> StmtKind {
        let mut inner = pair.into_inner().skip(1).peekable();
        let (place, index) = self.place_and_steps(&mut inner);
        StmtKind::Remove {
            place,
            index,
            at: self.expr(inner.nth(1).expect("grammar: position")),
        }
    }

    /// `turn p`, `turn p only a, b`.
    fn turn_stmt(&self, pair: Pair<Rule>) -> StmtKind {
        let mut inner = pair.into_inner().skip(1);
        let player = self.expr(inner.next().expect("grammar: player"));
        let only = inner
            .filter(|p| p.as_rule() == Rule::name)
            .map(|p| self.name(p))
            .collect();
        StmtKind::Turn { player, only }
    }

    /// `window ps only a, b until b`: the last name is the one `until` names.
    fn window_stmt(&self, pair: Pair<Rule>) -> StmtKind {
        let mut inner = pair.into_inner().skip(1);
        let players = self.expr(inner.next().expect("grammar: players"));
        let mut names: Vec<Name> = inner
            .filter(|p| p.as_rule() == Rule::name)
            .map(|p| self.name(p))
            .collect();
        let until = names.pop().expect("grammar: until");
        StmtKind::Window {
            players,
            only: names,
            until,
        }
    }

    /// `end game "why" winners xs`, each part optional.
    fn end_stmt(&self, pair: Pair<Rule>) -> StmtKind {
        let mut why = None;
        let mut winners = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::string => why = Some(self.text(p)),
                Rule::end_winners => winners = Some(self.expr(last(p))),
                _ => {}
            }
        }
        StmtKind::Finish(why, winners)
    }

    /// `eliminate p "why"`.
    fn eliminate_stmt(&self, pair: Pair<Rule>) -> StmtKind {
        let mut inner = pair.into_inner().skip(1);
        StmtKind::Eliminate {
            player: self.expr(inner.next().expect("grammar: player")),
            reason: inner.next().map(|t| self.text(t)),
        }
    }

    fn let_stmt(&self, pair: Pair<Rule>) -> StmtKind {
        let mut inner = pair.into_inner().skip(1);
        let name = self.name(inner.next().expect("grammar: let name"));
        let mut v = inner.next().expect("grammar: let value");
        let mut ty = None;
        if v.as_rule() == Rule::let_type {
            ty = Some(self.type_expr(last(v)));
            v = inner.next().expect("grammar: let value");
        }
        let value = match v.as_rule() {
            Rule::choose_expr => {
                let mut secret = false;
                let mut count = None;
                let mut exprs = Vec::new();
                let mut prompt = None;
                let mut always_ask = None;
                for p in v.into_inner() {
                    match p.as_rule() {
                        Rule::secret_flag => secret = true,
                        Rule::ask_flag => always_ask = Some(self.span(&p)),
                        Rule::choose_count => count = Some(self.choose_count(p)),
                        Rule::expr => exprs.push(self.expr(p)),
                        Rule::string => prompt = Some(self.text(p)),
                        _ => {}
                    }
                }
                let mut exprs = exprs.into_iter();
                LetValue::Choose {
                    player: exprs.next().expect("grammar: chooser"),
                    prompt: prompt.expect("grammar: prompt"),
                    options: exprs.next().expect("grammar: options"),
                    secret,
                    count,
                    always_ask,
                }
            }
            Rule::ask_expr => {
                let mut inner = v.into_inner().skip(1);
                let player = self.expr(inner.next().expect("grammar: asked"));
                let prompt = self.text(inner.next().expect("grammar: prompt"));
                let words = inner.next().map(|w| {
                    let mut names = w.into_inner().map(|n| self.name(n));
                    (
                        names.next().expect("grammar: yes word"),
                        names.next().expect("grammar: no word"),
                    )
                });
                LetValue::Ask {
                    player,
                    prompt,
                    words,
                }
            }
            Rule::roll_expr => {
                let mut count = None;
                let mut die = None;
                for p in v.into_inner() {
                    match p.as_rule() {
                        Rule::expr => count = Some(self.expr(p)),
                        Rule::name => die = Some(self.name(p)),
                        _ => {}
                    }
                }
                LetValue::Roll {
                    count,
                    die: die.expect("grammar: die"),
                }
            }
            Rule::random_expr => LetValue::Random(self.expr(last(v))),
            Rule::pop_expr => {
                let mut count = None;
                let (mut place, mut index) = (Vec::new(), Vec::new());
                let mut at = None;
                let mut inner = v.into_inner().peekable();
                while let Some(p) = inner.peek() {
                    match p.as_rule() {
                        Rule::place => (place, index) = self.place_and_steps(&mut inner),
                        Rule::expr => count = inner.next().map(|p| self.expr(p)),
                        Rule::pop_at => at = inner.next().map(|p| self.expr(last(p))),
                        _ => {
                            inner.next();
                        }
                    }
                }
                LetValue::Pop {
                    count,
                    place,
                    index,
                    at,
                }
            }
            Rule::shuffle_expr => LetValue::Shuffle(self.expr(last(v))),
            _ => LetValue::Expr(self.expr(v)),
        };
        StmtKind::Let { name, ty, value }
    }

    /// `a.b.c`: the names of a place that can be assigned.
    fn place(&self, pair: Pair<Rule>) -> Vec<Name> {
        pair.into_inner()
            .map(|n| match n.as_rule() {
                // `me.coins = 3`: the place starts with `me`, the one reserved word it may.
                Rule::me_lit => self.word(&n),
                _ => self.name(n),
            })
            .collect()
    }

    /// A place and the `[i]` and `.field` steps after it, each with the span of the target
    /// up to it.
    fn place_and_steps<'a>(
        &self,
        inner: &mut std::iter::Peekable<impl Iterator<Item = Pair<'a, Rule>>>,
    ) -> (Vec<Name>, Vec<(PlaceStep, Span)>) {
        let place_pair = inner.next().expect("grammar: place");
        let place_span = self.span(&place_pair);
        let place = self.place(place_pair);
        let mut index = Vec::new();
        while let Some(i) =
            inner.next_if(|p| matches!(p.as_rule(), Rule::index | Rule::field_access))
        {
            let target = place_span.to(self.span(&i));
            let step = if i.as_rule() == Rule::index {
                PlaceStep::Index(self.expr(last(i)))
            } else {
                PlaceStep::Field(self.name(last(i)))
            };
            index.push((step, target));
        }
        (place, index)
    }

    fn assign_stmt(&self, pair: Pair<Rule>) -> StmtKind {
        let mut inner = pair.into_inner().peekable();
        let (place, index) = self.place_and_steps(&mut inner);
        let op = match inner.next().expect("grammar: op").as_str() {
            "+=" => AssignOp::Add,
            "-=" => AssignOp::Sub,
            _ => AssignOp::Set,
        };
        StmtKind::Assign {
            place,
            index,
            op,
            value: self.expr(inner.next().expect("grammar: value")),
        }
    }

    fn if_stmt(&self, pair: Pair<Rule>) -> StmtKind {
        let mut inner = pair.into_inner().skip(1);
        let cond = self.expr(inner.next().expect("grammar: cond"));
        let then = self.block(inner.next().expect("grammar: then"));
        let otherwise = inner.find(|p| p.as_rule() != Rule::kw_else).map(|p| {
            if p.as_rule() == Rule::if_stmt {
                let span = self.span(&p);
                Block {
                    stmts: vec![Stmt {
                        kind: self.if_stmt(p),
                        span,
                    }],
                    span,
                }
            } else {
                self.block(p)
            }
        });
        StmtKind::If {
            cond,
            then,
            otherwise,
        }
    }

    fn match_stmt(&self, pair: Pair<Rule>) -> StmtKind {
        let mut inner = pair.into_inner().skip(1);
        let value = self.expr(inner.next().expect("grammar: matched value"));
        let arms = inner
            .map(|arm| {
                let span = self.span(&arm);
                let mut values = Vec::new();
                let mut body = None;
                for p in arm.into_inner() {
                    match p.as_rule() {
                        Rule::match_value => {
                            let v = p.into_inner().next().expect("grammar: arm value");
                            values.push(match v.as_rule() {
                                Rule::none_lit => MatchValue::None(self.span(&v)),
                                _ => MatchValue::Name(self.name(v)),
                            });
                        }
                        Rule::block => body = Some(self.block(p)),
                        _ => {}
                    }
                }
                MatchArm {
                    values,
                    body: body.expect("grammar: arm block"),
                    span,
                }
            })
            .collect();
        StmtKind::Match { value, arms }
    }

    fn for_stmt(&self, pair: Pair<Rule>) -> StmtKind {
        let mut var = None;
        let mut exprs = Vec::new();
        let mut body = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::name => var = Some(self.name(p)),
                Rule::expr => exprs.push(self.expr(p)),
                Rule::block => body = Some(self.block(p)),
                _ => {}
            }
        }
        let mut exprs = exprs.into_iter();
        StmtKind::For {
            var: var.expect("grammar: for var"),
            source: exprs.next().expect("grammar: for source"),
            filter: exprs.next(),
            body: body.expect("grammar: for body"),
        }
    }

    fn secretly_stmt(&self, pair: Pair<Rule>) -> StmtKind {
        let mut names = Vec::new();
        let mut exprs = Vec::new();
        let mut prompt = None;
        let mut then = None;
        let mut count = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::choose_count => count = Some(self.choose_count(p)),
                Rule::name => names.push(self.name(p)),
                Rule::expr => exprs.push(self.expr(p)),
                Rule::string => prompt = Some(self.text(p)),
                Rule::block => then = Some(self.block(p)),
                _ => {}
            }
        }
        let mut names = names.into_iter();
        let mut exprs = exprs.into_iter();
        StmtKind::Secretly {
            player: names.next().expect("grammar: player"),
            players: exprs.next().expect("grammar: players"),
            count,
            choice: names.next().expect("grammar: choice"),
            prompt: prompt.expect("grammar: prompt"),
            options: exprs.next().expect("grammar: options"),
            then: then.expect("grammar: then"),
        }
    }

    /// `any of`, `at most k of`, `exactly k of`, `lo..hi of`.
    fn choose_count(&self, pair: Pair<Rule>) -> ChooseCount {
        let span = self.span(&pair);
        let inner = pair.into_inner().next().expect("grammar: a count");
        let rule = inner.as_rule();
        let bound = inner
            .into_inner()
            .find(|p| p.as_rule() == Rule::expr)
            .map(|p| self.expr(p));
        let kind = match (rule, bound) {
            (Rule::count_at_most, Some(k)) => CountKind::AtMost(k),
            (Rule::count_exactly, Some(k)) => CountKind::Exactly(k),
            (Rule::count_between, Some(k)) => CountKind::Between(k),
            _ => CountKind::Any,
        };
        ChooseCount { kind, span }
    }

    fn args(&self, pair: Pair<Rule>) -> Vec<Expr> {
        pair.into_inner()
            .map(|a| match a.as_rule() {
                Rule::comprehension => self.comprehension(a),
                Rule::arg_expr => {
                    let span = self.span(&a);
                    let mut inner = a.into_inner();
                    let e = self.expr(inner.next().expect("grammar: argument"));
                    match inner.next() {
                        Some(tail) => self.map_comprehension(e, tail, span),
                        None => e,
                    }
                }
                _ => self.expr(a),
            })
            .collect()
    }

    /// `clue(colour: red, number: 3)`: every argument named; one that is not is refused
    /// (`record-needs-names`), since fields are told apart by their names alone.
    fn named_args(&self, pair: Pair<Rule>) -> Vec<(Name, Expr)> {
        let mut fields = Vec::new();
        for a in pair.into_inner() {
            if a.as_rule() == Rule::named_arg {
                let mut inner = a.into_inner();
                let name = self.name(inner.next().expect("grammar: field name"));
                fields.push((name, self.expr(inner.next().expect("grammar: field value"))));
                continue;
            }
            self.errors.borrow_mut().push(
                Diagnostic::error(
                    "record-needs-names",
                    "a record's fields are given by name",
                    self.span(&a),
                )
                .with_label("no field named here")
                .with_help("name the field it is for, as in `clue(colour: red, number: 3)`"),
            );
        }
        fields
    }

    /// `expr for x in xs where c`: `map` is the expression before `for`.
    fn map_comprehension(&self, map: Expr, tail: Pair<Rule>, span: Span) -> Expr {
        let mut inner = tail
            .into_inner()
            .filter(|p| !matches!(p.as_rule(), Rule::kw_for | Rule::kw_in | Rule::kw_where));
        let var = self.name(inner.next().expect("grammar: comprehension var"));
        let source = Box::new(self.expr(inner.next().expect("grammar: comprehension source")));
        let filter = inner.next().map(|f| Box::new(self.expr(f)));
        Expr {
            kind: ExprKind::Comprehension(Comprehension {
                var,
                source,
                filter,
                map: Some(Box::new(map)),
                keys: Vec::new(),
            }),
            span,
        }
    }

    fn text(&self, pair: Pair<Rule>) -> Text {
        let span = self.span(&pair);
        let mut parts: Vec<TextPart> = Vec::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::str_text | Rule::str_escape => {
                    let s = if p.as_rule() == Rule::str_escape {
                        match &p.as_str()[1..] {
                            "n" => "\n".to_string(),
                            "t" => "\t".to_string(),
                            other => other.to_string(),
                        }
                    } else {
                        p.as_str().to_string()
                    };
                    if let Some(TextPart::Lit(prev)) = parts.last_mut() {
                        prev.push_str(&s);
                    } else {
                        parts.push(TextPart::Lit(s));
                    }
                }
                Rule::interp => parts.push(self.interp(last(p))),
                _ => {}
            }
        }
        Text { parts, span }
    }

    /// What stands between a text's braces: a value, or a conditional or repeated part.
    fn interp(&self, pair: Pair<Rule>) -> TextPart {
        match pair.as_rule() {
            Rule::text_if => {
                let span = self.span(&pair);
                let mut inner = pair.into_inner().filter(|p| {
                    p.as_rule() != Rule::kw_if
                        && p.as_rule() != Rule::kw_then
                        && p.as_rule() != Rule::kw_else
                });
                let cond = self.expr(inner.next().expect("grammar: cond"));
                let then = inner.next().expect("grammar: then");
                if then.as_rule() == Rule::expr {
                    // `{if c then 1 else 2}`: the `if` expression.
                    let otherwise = inner.next().expect("grammar: else");
                    return TextPart::Expr(Expr {
                        kind: ExprKind::If {
                            cond: Box::new(cond),
                            then: Box::new(self.expr(then)),
                            otherwise: Box::new(self.expr(otherwise)),
                        },
                        span,
                    });
                }
                let then = self.text(then);
                let otherwise = inner.next().map(|p| match p.as_rule() {
                    Rule::string => self.text(p),
                    _ => Text {
                        span: self.span(&p),
                        parts: vec![self.interp(p)],
                    },
                });
                TextPart::If {
                    cond,
                    then,
                    otherwise,
                }
            }
            Rule::text_each => {
                let mut var = None;
                let mut exprs = Vec::new();
                let mut texts = Vec::new();
                let mut filter_at = None;
                for p in pair.into_inner() {
                    match p.as_rule() {
                        Rule::name => var = Some(self.name(p)),
                        Rule::kw_where => filter_at = Some(exprs.len()),
                        Rule::expr => exprs.push(self.expr(p)),
                        Rule::string => texts.push(self.text(p)),
                        _ => {}
                    }
                }
                let mut exprs = exprs.into_iter();
                let mut texts = texts.into_iter();
                TextPart::Each {
                    var: var.expect("grammar: name"),
                    source: exprs.next().expect("grammar: source"),
                    filter: filter_at.and_then(|_| exprs.next()),
                    body: texts.next().expect("grammar: body"),
                    sep: texts.next(),
                }
            }
            _ => TextPart::Expr(self.expr(pair)),
        }
    }

    pub(super) fn expr(&self, pair: Pair<Rule>) -> Expr {
        match pair.as_rule() {
            Rule::expr | Rule::expr_noin => {}
            _ => return self.primary(pair),
        }
        // Each operator is a level of the tree built here: a chain of thousands of `+` or `.`
        // would be a tree that thousands of levels of recursion check, run and drop.
        let mut operators = pair
            .clone()
            .into_inner()
            .filter(|p| is_operator(p.as_rule()));
        if let Some(past) = operators.nth(super::MAX_NESTING) {
            let count = super::MAX_NESTING + 1 + operators.count();
            self.errors.borrow_mut().push(
                Diagnostic::error(
                    "too-deep",
                    format!(
                        "this expression nests more than {} levels deep (it has {count} operators, each a level)",
                        super::MAX_NESTING
                    ),
                    self.span(&past),
                )
                .with_label("one operator too many")
                .with_help("split the expression with `let` or a `def`"),
            );
            return Expr {
                kind: ExprKind::Int(0),
                span: self.span(&pair),
            };
        }
        // Most expressions are an operand and field accesses (`x`, `p.hand`): built directly,
        // as the Pratt parser below would build them.
        let mut inner = pair.clone().into_inner();
        let first = inner.next().expect("grammar: operand");
        if !matches!(first.as_rule(), Rule::op_not | Rule::op_neg)
            && inner
                .clone()
                .all(|p| matches!(p.as_rule(), Rule::field_access | Rule::index))
        {
            return inner.fold(self.primary(first), |lhs, op| self.postfix(lhs, op));
        }
        pratt()
            .map_primary(|p| self.primary(p))
            .map_prefix(|op, rhs| {
                let span = self.span(&op).to(rhs.span);
                let op = if op.as_rule() == Rule::op_not {
                    UnOp::Not
                } else {
                    UnOp::Neg
                };
                Expr {
                    kind: ExprKind::Unary {
                        op,
                        operand: Box::new(rhs),
                    },
                    span,
                }
            })
            .map_postfix(|lhs, op| self.postfix(lhs, op))
            .map_infix(|lhs, op, rhs| {
                let op = match op.as_rule() {
                    Rule::op_or => BinOp::Or,
                    Rule::op_and => BinOp::And,
                    Rule::op_eq => BinOp::Eq,
                    Rule::op_ne => BinOp::Ne,
                    Rule::op_lt => BinOp::Lt,
                    Rule::op_le => BinOp::Le,
                    Rule::op_gt => BinOp::Gt,
                    Rule::op_ge => BinOp::Ge,
                    Rule::op_in => BinOp::In,
                    Rule::op_notin => BinOp::NotIn,
                    Rule::op_range => BinOp::Range,
                    Rule::op_add => BinOp::Add,
                    Rule::op_sub => BinOp::Sub,
                    Rule::op_mul => BinOp::Mul,
                    Rule::op_div => BinOp::Div,
                    _ => BinOp::Mod,
                };
                let span = lhs.span.to(rhs.span);
                Expr {
                    kind: ExprKind::Binary {
                        op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    },
                    span,
                }
            })
            .parse(pair.into_inner())
    }

    /// `lhs.name` or `lhs[i]`, from a `field_access` or an `index` pair.
    fn postfix(&self, lhs: Expr, op: Pair<Rule>) -> Expr {
        if op.as_rule() == Rule::index {
            let span = lhs.span.to(self.span(&op));
            return Expr {
                kind: ExprKind::Index {
                    base: Box::new(lhs),
                    index: Box::new(self.expr(last(op))),
                },
                span,
            };
        }
        let field = self.name(last(op));
        let span = lhs.span.to(field.span);
        Expr {
            kind: ExprKind::Field {
                base: Box::new(lhs),
                field,
            },
            span,
        }
    }

    fn primary(&self, pair: Pair<Rule>) -> Expr {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::int => {
                match pair.as_str().parse::<i64>() {
                    Ok(n) => ExprKind::Int(n),
                    Err(_) => {
                        self.errors.borrow_mut().push(
                        Diagnostic::error("number-too-large", "this number is too large", span)
                            .with_label("does not fit in 64 bits")
                            .with_help("numbers range from -9223372036854775808 to 9223372036854775807"),
                    );
                        ExprKind::Int(0)
                    }
                }
            }
            Rule::name => ExprKind::Name(self.name(pair)),
            Rule::expr => return self.expr(pair),
            Rule::if_expr => {
                let mut exprs = pair
                    .into_inner()
                    .filter(|p| p.as_rule() == Rule::expr)
                    .map(|p| Box::new(self.expr(p)));
                ExprKind::If {
                    cond: exprs.next().expect("grammar: cond"),
                    then: exprs.next().expect("grammar: then"),
                    otherwise: exprs.next().expect("grammar: else"),
                }
            }
            Rule::list_lit => {
                let mut items = Vec::new();
                for p in pair.into_inner() {
                    match p.as_rule() {
                        Rule::comp_tail => {
                            let map = items.pop().expect("grammar: a mapped expression");
                            return self.map_comprehension(map, p, span);
                        }
                        _ => items.push(self.expr(p)),
                    }
                }
                ExprKind::List(items)
            }
            Rule::comprehension_list => return self.comprehension(last(pair)),
            Rule::call => {
                let mut inner = pair.into_inner();
                let word = inner.next().expect("grammar: name");
                match (word.as_str(), inner.next()) {
                    // The grammar takes every word for a name; these four are values.
                    ("true" | "false", None) => ExprKind::Bool(word.as_str() == "true"),
                    ("none", None) => ExprKind::None,
                    ("me", None) => ExprKind::Me,
                    (_, Some(args))
                        if args
                            .clone()
                            .into_inner()
                            .any(|a| a.as_rule() == Rule::named_arg) =>
                    {
                        ExprKind::Record {
                            name: self.name(word),
                            fields: self.named_args(args),
                        }
                    }
                    (_, Some(args)) => ExprKind::Call {
                        name: self.name(word),
                        args: self.args(args),
                    },
                    (_, None) => ExprKind::Name(self.name(word)),
                }
            }
            Rule::by_players => ExprKind::ByPlayers(
                pair.into_inner()
                    .filter(|p| p.as_rule() == Rule::by_entry)
                    .map(|e| {
                        let mut inner = e.into_inner();
                        (
                            self.expr(inner.next().expect("grammar: key")),
                            self.expr(inner.next().expect("grammar: value")),
                        )
                    })
                    .collect(),
            ),
            r => unreachable!("grammar: unexpected primary {r:?}"),
        };
        Expr { kind, span }
    }

    /// `x in xs where c by k1, k2`.
    fn comprehension(&self, pair: Pair<Rule>) -> Expr {
        let span = self.span(&pair);
        let c = pair.into_inner().next().expect("grammar: comprehension");
        let mut var = None;
        let mut source = None;
        let mut filter = None;
        let mut keys = Vec::new();
        let mut after_where = false;
        let mut after_by = false;
        for p in c.into_inner() {
            match p.as_rule() {
                Rule::name => var = Some(self.name(p)),
                Rule::kw_where => after_where = true,
                Rule::kw_by => after_by = true,
                Rule::expr | Rule::expr_noin => {
                    let e = self.expr(p);
                    if after_by {
                        keys.push(e);
                    } else if after_where {
                        filter = Some(Box::new(e));
                    } else {
                        source = Some(Box::new(e));
                    }
                }
                _ => {}
            }
        }
        Expr {
            kind: ExprKind::Comprehension(Comprehension {
                var: var.expect("grammar: comprehension var"),
                source: source.expect("grammar: comprehension source"),
                filter,
                map: None,
                keys,
            }),
            span,
        }
    }
}

fn last(pair: Pair<Rule>) -> Pair<Rule> {
    pair.into_inner().last().expect("grammar: inner pair")
}

/// True for a rule that is an operator of an expression (prefix, infix or `.field`), not an
/// operand.
fn is_operator(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::op_not
            | Rule::op_neg
            | Rule::field_access
            | Rule::index
            | Rule::op_or
            | Rule::op_and
            | Rule::op_eq
            | Rule::op_ne
            | Rule::op_lt
            | Rule::op_le
            | Rule::op_gt
            | Rule::op_ge
            | Rule::op_in
            | Rule::op_notin
            | Rule::op_range
            | Rule::op_add
            | Rule::op_sub
            | Rule::op_mul
            | Rule::op_div
            | Rule::op_mod
    )
}
