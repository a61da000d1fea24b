//! The abstract syntax tree of a rules file: owned, spanned, with no pest types.
//!
//! Invariant: every node that a diagnostic can blame carries a [`Span`].

use crate::diag::Span;

/// A name as written, with where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    /// The identifier text.
    pub text: String,
    /// Where it stands in the source.
    pub span: Span,
}

/// One parsed rules file: its items in source order.
#[derive(Debug, Clone, Default)]
pub struct File {
    /// Every top-level item, patches included.
    pub items: Vec<Item>,
}

/// How a variant file treats an item of its base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Patch {
    /// `add ...`: a new part the base must not have.
    Add,
    /// `replace ...`: a part the base must have, with the same kind and name.
    Replace,
}

/// A top-level item.
// Items are built once per file and moved into the merged program; boxing buys nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Item {
    /// A declaration, possibly marked `add` or `replace` in a variant.
    Decl {
        patch: Option<(Patch, Span)>,
        decl: Decl,
    },
    /// `remove action trade`: drop a named part of the base.
    Remove {
        kind: PartKind,
        name: Name,
        span: Span,
    },
}

/// The kinds of named part that a variant can add, replace or remove.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PartKind {
    /// `var` (global or per player).
    Var,
    /// `kind`.
    Kind,
    /// `record`.
    Record,
    /// `enum`.
    Enum,
    /// `die`.
    Die,
    /// `def`.
    Def,
    /// `effect`.
    Effect,
    /// `action`.
    Action,
    /// `phase`.
    Phase,
    /// `flow` (one per game).
    Flow,
    /// `setup` (one per game).
    Setup,
    /// `score` (one per game).
    Score,
    /// `goal` (one per game).
    Goal,
    /// `winners` (one per game).
    Winners,
    /// `invariant`.
    Invariant,
    /// `table`.
    Table,
    /// `show` (for the game or per player).
    Show,
}

impl PartKind {
    /// The keyword that introduces this kind of part.
    pub fn keyword(self) -> &'static str {
        match self {
            PartKind::Var => "var",
            PartKind::Kind => "kind",
            PartKind::Record => "record",
            PartKind::Enum => "enum",
            PartKind::Die => "die",
            PartKind::Def => "def",
            PartKind::Effect => "effect",
            PartKind::Action => "action",
            PartKind::Phase => "phase",
            PartKind::Flow => "flow",
            PartKind::Setup => "setup",
            PartKind::Score => "score",
            PartKind::Goal => "goal",
            PartKind::Winners => "winners",
            PartKind::Invariant => "invariant",
            PartKind::Table => "table",
            PartKind::Show => "show",
        }
    }

    /// Parts of which a game has at most one, named by their keyword.
    pub fn is_singleton(self) -> bool {
        matches!(
            self,
            PartKind::Flow | PartKind::Setup | PartKind::Score | PartKind::Goal | PartKind::Winners
        )
    }
}

/// A declaration.
#[derive(Debug, Clone)]
pub enum Decl {
    /// `game "Name" { players 3..5  source "..."  seats ["N", "E"] }`
    Game(GameDecl),
    /// `variant "Name" { base "../game.rules"  excludes "other.rules" }`
    Variant(VariantDecl),
    /// `enum colour { red, blue }`
    Enum(EnumDecl),
    /// `player secret var hand_size: int = 0`
    Var(VarDecl),
    /// `kind crate[5] { weight: int = 0 }`
    Kind(KindDecl),
    /// `record clue { colour: colour = none  number: int }`
    Record(RecordDecl),
    /// `die d6: 1..6`
    Die(DieDecl),
    /// `table chart(roll: int, event: chance) { (1, crash), (2, boom) }`
    Table(TableDecl),
    /// `def total(p: player): int = p.coins + p.gems`
    Def(DefDecl),
    /// `effect offer(pool: int) { ... }`
    Effect(ProcDecl),
    /// `action trade "Trade with a neighbour" { require ... else "..." ... }`
    Action(ActionDecl),
    /// `phase round { ... }`
    Phase(ProcDecl),
    /// `flow { ... }`
    Flow(BlockDecl),
    /// `setup { ... }`
    Setup(BlockDecl),
    /// `score(p) = ...`
    Score(ScoreDecl),
    /// `goal(p) = ...`: what each seat plays for (a [`ScoreDecl`] under another keyword).
    Goal(ScoreDecl),
    /// `winners = ...`
    Winners(WinnersDecl),
    /// `invariant cubes_kept "the cubes are all somewhere" = ...`
    Invariant(InvariantDecl),
    /// `section "Heading" { ... }`: a marker standing before the declarations written in it
    /// (which follow it as top-level items, declared as they would be there).
    Section(SectionDecl),
    /// `show deck_left = count(deck)`: a value views show.
    Show(ShowDecl),
    /// `scenario "name" { ... }`: a designer's test.
    Scenario(ScenarioDecl),
}

impl Decl {
    /// The kind and name under which a variant can address this declaration.
    pub fn part(&self) -> Option<(PartKind, Name)> {
        let named = |kind, name: &Name| Some((kind, name.clone()));
        match self {
            Decl::Game(_) | Decl::Variant(_) | Decl::Scenario(_) | Decl::Section(_) => None,
            Decl::Enum(d) => named(PartKind::Enum, &d.name),
            Decl::Var(d) => named(PartKind::Var, &d.name),
            Decl::Kind(d) => named(PartKind::Kind, &d.name),
            Decl::Record(d) => named(PartKind::Record, &d.name),
            Decl::Die(d) => named(PartKind::Die, &d.name),
            Decl::Table(d) => named(PartKind::Table, &d.name),
            Decl::Def(d) => named(PartKind::Def, &d.name),
            Decl::Effect(d) => named(PartKind::Effect, &d.name),
            Decl::Action(d) => named(PartKind::Action, &d.name),
            Decl::Phase(d) => named(PartKind::Phase, &d.name),
            Decl::Flow(d) => named(PartKind::Flow, &d.keyword),
            Decl::Setup(d) => named(PartKind::Setup, &d.keyword),
            Decl::Score(d) => named(PartKind::Score, &d.keyword),
            Decl::Goal(d) => named(PartKind::Goal, &d.keyword),
            Decl::Winners(d) => named(PartKind::Winners, &d.keyword),
            Decl::Invariant(d) => named(PartKind::Invariant, &d.name),
            Decl::Show(d) => named(PartKind::Show, &d.name),
        }
    }
}

/// The game header.
#[derive(Debug, Clone)]
pub struct GameDecl {
    /// The game's title.
    pub title: Text,
    /// `players 3..5` (or a single count).
    pub players: Option<Expr>,
    /// Where the rules come from.
    pub source: Option<Text>,
    /// Seat names; the default is P1, P2, ...
    pub seats: Vec<Text>,
    /// `always ask`: a choice of one option is asked too.
    pub always_ask: bool,
    /// The whole header.
    pub span: Span,
}

/// The header of a variant file.
#[derive(Debug, Clone)]
pub struct VariantDecl {
    /// The variant's title.
    pub title: Text,
    /// Path of the base rules file, relative to this file.
    pub base: Option<Text>,
    /// Variant files that may not be combined with this one.
    pub excludes: Vec<Text>,
    /// The whole header.
    pub span: Span,
}

/// `enum name { a, b, c }`
#[derive(Debug, Clone)]
pub struct EnumDecl {
    /// The enum's name.
    pub name: Name,
    /// Its values in order.
    pub values: Vec<Name>,
    /// How each value is shown (`jack shown as "J"`), in the order of `values`.
    pub shown: Vec<Option<Text>>,
}

/// Who may see a variable or field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Visibility {
    /// Everyone (the default).
    #[default]
    Public,
    /// Only the player it belongs to.
    Secret,
    /// Nobody.
    Hidden,
    /// The rules' own bookkeeping: not a secret, but shown by no view.
    Internal,
}

/// Which end of a list `visible first k` or `visible last k` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The first elements: the bottom of a pile, the front of a row.
    First,
    /// The last elements: the top of a pile, where `pop` takes from.
    Last,
}

/// `visible last k`: how many elements at one end of a hidden list everyone may see.
#[derive(Debug, Clone)]
pub struct VisiblePart {
    /// The end the shown elements lie at.
    pub end: End,
    /// How many, worked out at each look (`owner` or `it` bound, as in `visible when`).
    pub count: Expr,
    /// The whole clause, from `visible`.
    pub span: Span,
}

/// `[player] [secret|hidden] var name: type = init`
#[derive(Debug, Clone)]
pub struct VarDecl {
    /// The variable's name.
    pub name: Name,
    /// One value per player (`player var`) or one for the game.
    pub per_player: bool,
    /// Who may see it.
    pub visibility: Visibility,
    /// Its declared type.
    pub ty: TypeExpr,
    /// Its initial value.
    pub init: Expr,
    /// `visible when cond`: who else may see it (boxed: seldom written, and an expression is
    /// a hundred bytes in every declaration without it).
    pub visible_when: Option<Box<Expr>>,
    /// `visible first k` / `visible last k`: the part of a list everyone may see (boxed: seldom
    /// written).
    pub visible_part: Option<Box<VisiblePart>>,
    /// `shown when cond`: whether views draw it at all (boxed: seldom written).
    pub shown_when: Option<Box<Expr>>,
}

/// `kind name[count] { fields }`
#[derive(Debug, Clone)]
pub struct KindDecl {
    /// The kind's name.
    pub name: Name,
    /// How many instances exist: a count, or one per name.
    pub count: KindCount,
    /// `shown as "..."`: how an instance is named, with `it` bound to it.
    pub label: Option<Text>,
    /// `listed when cond`: which instances views list, with `it` bound to each.
    pub listed: Option<Expr>,
    /// The fields of each instance.
    pub fields: Vec<FieldDecl>,
}

/// `record name shown as "..." { field: type = default ... }`: a value with named fields, built
/// as `name(field: value, ...)`, kept at run time as a list of its fields in this order.
#[derive(Debug, Clone)]
pub struct RecordDecl {
    /// The record's name, which is also its type.
    pub name: Name,
    /// `shown as "..."`: how a value is shown, with `it` bound to it.
    pub label: Option<Text>,
    /// Its fields, in order.
    pub fields: Vec<RecordField>,
}

/// A field of a record: its name, its type and the value it takes when a construction leaves it out.
#[derive(Debug, Clone)]
pub struct RecordField {
    /// The field's name.
    pub name: Name,
    /// Its declared type.
    pub ty: TypeExpr,
    /// `= value`: the default, if any.
    pub default: Option<Expr>,
    /// Who may see the field, among those who see the value that holds the record: `public`
    /// (written or not), `secret` (the seat whose variable holds it) or `hidden`.
    pub visibility: Visibility,
    /// `visible when`: who else may see it, with `viewer`, `owner` and `it` (the record).
    pub visible_when: Option<Box<Expr>>,
}

/// One step of an assignment's target after its place: `[i]` or `.field` (a record's field).
#[derive(Debug, Clone)]
pub enum PlaceStep {
    /// `[i]`: a position of a list or a key of a map.
    Index(Expr),
    /// `.field`: a field of a record.
    Field(Name),
}

/// How the instances of a kind are made.
#[derive(Debug, Clone)]
pub enum KindCount {
    /// `kind card[52]`: numbered instances, `card-1` to `card-52`.
    Count(Expr),
    /// `kind company named A, B, C`: one instance per name, each a value of the kind.
    Named(Vec<Name>),
    /// `kind card from dishes by copies`: one instance per row of the table, or as many per
    /// row as its column `copies` says.
    Rows {
        /// The table.
        table: Name,
        /// The column of whole numbers saying how many copies of each row.
        copies: Option<Name>,
    },
}

/// A field of a kind.
#[derive(Debug, Clone)]
pub struct FieldDecl {
    /// The field's name.
    pub name: Name,
    /// Who may see it.
    pub visibility: Visibility,
    /// Its declared type.
    pub ty: TypeExpr,
    /// Its initial value.
    pub init: Expr,
    /// `visible when cond`: who else may see it (boxed: seldom written, and an expression is
    /// a hundred bytes in every declaration without it).
    pub visible_when: Option<Box<Expr>>,
    /// `visible first k` / `visible last k`: the part of a list everyone may see (boxed: seldom
    /// written).
    pub visible_part: Option<Box<VisiblePart>>,
    /// `shown when cond`: whether views draw it at all (boxed: seldom written).
    pub shown_when: Option<Box<Expr>>,
}

/// `table chart(roll: int, event: chance) { (1, crash), (2, boom) }`
#[derive(Debug, Clone)]
pub struct TableDecl {
    /// The table's name.
    pub name: Name,
    /// Its columns: a name and a type each.
    pub columns: Vec<Param>,
    /// Its rows, in order: one value per column each.
    pub rows: Vec<TableRow>,
}

/// One row of a table: `(1, crash)`.
#[derive(Debug, Clone)]
pub struct TableRow {
    /// Its values, one per column.
    pub cells: Vec<Expr>,
    /// The whole row.
    pub span: Span,
}

/// `die d6: 1..6`
#[derive(Debug, Clone)]
pub struct DieDecl {
    /// The die's name.
    pub name: Name,
    /// Its faces: a range or a list of integers.
    pub faces: Expr,
}

/// A parameter of a def, effect or action.
#[derive(Debug, Clone)]
pub struct Param {
    /// The parameter's name.
    pub name: Name,
    /// Its declared type (of each element, for a set).
    pub ty: TypeExpr,
    /// `exactly 3 of`, `at most k of`, `any of`: an action's argument that is a set of distinct
    /// values of `ty`.
    pub count: Option<ChooseCount>,
    /// `secret`: an action's argument only its player sees, where its span is.
    pub secret: Option<Span>,
}

/// `def name(params): type = expr`
#[derive(Debug, Clone)]
pub struct DefDecl {
    /// The function's name.
    pub name: Name,
    /// Its parameters.
    pub params: Vec<Param>,
    /// Its result type.
    pub ret: TypeExpr,
    /// Its body.
    pub body: Expr,
}

/// `effect name(params) { ... }` and `phase name { ... }`
#[derive(Debug, Clone)]
pub struct ProcDecl {
    /// The procedure's name.
    pub name: Name,
    /// Its parameters (none for phases).
    pub params: Vec<Param>,
    /// Its body.
    pub body: Block,
}

/// `action name(params) "description" { require ...  effects }`
#[derive(Debug, Clone)]
pub struct ActionDecl {
    /// The action's name: what a player types.
    pub name: Name,
    /// Parameters, each drawn from a finite domain.
    pub params: Vec<Param>,
    /// What the action does, for help text.
    pub description: Option<Text>,
    /// `only when no other`, where it is written: offered only when no other action is.
    pub last_resort: Option<Span>,
    /// Preconditions first, then effects.
    pub body: Block,
}

/// `flow { ... }` and `setup { ... }`
#[derive(Debug, Clone)]
pub struct BlockDecl {
    /// The keyword, as a name for variants to address.
    pub keyword: Name,
    /// The statements.
    pub body: Block,
}

/// `score(p) = expr`
#[derive(Debug, Clone)]
pub struct ScoreDecl {
    /// The keyword, as a name for variants to address.
    pub keyword: Name,
    /// The name bound to each player.
    pub player: Name,
    /// The score of that player.
    pub body: Expr,
}

/// `winners = expr`
#[derive(Debug, Clone)]
pub struct WinnersDecl {
    /// The keyword, as a name for variants to address.
    pub keyword: Name,
    /// A list of players; empty means everyone loses.
    pub body: Expr,
}

/// `invariant name "description" = cond`
#[derive(Debug, Clone)]
pub struct InvariantDecl {
    /// Its name, for variants and errors.
    pub name: Name,
    /// What it means, for errors.
    pub description: Option<Text>,
    /// Must hold after every decision.
    pub cond: Expr,
}

/// `show deck_left = count(deck)`, `player show bonuses = ...`: a value views show, worked out
/// when they are drawn.
#[derive(Debug, Clone)]
pub struct ShowDecl {
    /// Its name, as views label it.
    pub name: Name,
    /// `player show`: one value a seat, `owner` standing for the seat.
    pub per_player: bool,
    /// What is shown.
    pub value: ShowValue,
    /// `shown when cond`: whether views draw it at all.
    pub shown_when: Option<Expr>,
}

/// `section "Heading" { ... }`: declarations that views draw under a heading. The lowering
/// writes what it holds as top-level items right after it (`section::flatten`), so every other
/// stage declares them as if written there; this keeps the heading and what was inside.
#[derive(Debug, Clone)]
pub struct SectionDecl {
    /// The heading.
    pub heading: Text,
    /// The whole section, keyword to closing brace.
    pub span: Span,
    /// The variables and `show`s written in it, in order.
    pub entries: Vec<SectionEntry>,
    /// Where each other declaration written in it stands (views do not draw them there), and
    /// what it is (`action`, `kind`, ...).
    pub others: Vec<(Span, &'static str)>,
    /// The heading of the section this one is written in, if it is nested.
    pub within: Option<Span>,
    /// Where `as table` is written: its lists are drawn side by side, a row per position.
    pub table: Option<Span>,
    /// What is written inside, until it is flattened; empty afterwards.
    pub items: Vec<Item>,
}

/// A declaration written in a section.
#[derive(Debug, Clone)]
pub struct SectionEntry {
    /// Its name.
    pub name: Name,
    /// `player var` or `player show`: one a seat.
    pub per_player: bool,
    /// A `show` rather than a variable.
    pub show: bool,
}

/// What a `show` shows.
#[derive(Debug, Clone)]
pub enum ShowValue {
    /// A value, written as views write values.
    Expr(Expr),
    /// A text, written as it reads.
    Text(Text),
}

impl ShowValue {
    /// Where it is written.
    pub fn span(&self) -> Span {
        match self {
            ShowValue::Expr(e) => e.span,
            ShowValue::Text(t) => t.span,
        }
    }
}

/// `scenario "name" { steps }`
#[derive(Debug, Clone)]
pub struct ScenarioDecl {
    /// What it shows.
    pub title: Text,
    /// Its steps in order.
    pub steps: Vec<Step>,
    /// The whole scenario.
    pub span: Span,
}

/// One step of a scenario.
#[derive(Debug, Clone)]
pub struct Step {
    /// What it does.
    pub kind: StepKind,
    /// The whole step.
    pub span: Span,
}

/// The steps of a scenario.
#[derive(Debug, Clone)]
pub enum StepKind {
    /// `players 4`: how many play (before any other step).
    Players(Expr),
    /// `seed 7`: the game's seed (before any other step).
    Seed(Expr),
    /// `play P1 "trade", "accept"`: moves, by one seat or by whoever must decide.
    Play {
        seat: Option<Expr>,
        moves: Vec<Text>,
    },
    /// `run until cond`: random bots play until the condition holds or the game ends.
    RunUntil(Expr),
    /// `let c = first(crate)`: name a value for later steps.
    Let { name: Name, value: Expr },
    /// `set P1.coins = 30`, `set P1.clues[1].number = 3`: change the position by hand.
    Set {
        place: Vec<Name>,
        /// `[i]`, `.field` after the place, as an assignment's.
        index: Vec<(PlaceStep, Span)>,
        value: Expr,
    },
    /// `move c from P2.hand to deck at 1`: take an item out of the list that holds it and put
    /// it into another, last or at a position.
    Move {
        item: Expr,
        from: Option<Vec<Name>>,
        to: Vec<Name>,
        at: Option<Expr>,
    },
    /// `expect cond`: the condition must hold now.
    Expect(Expr),
    /// `expect winners == [P1]`: ends the game where it stands and compares the winners.
    ExpectWinners(Expr),
    /// `end game`: ends the game where it stands, scoring it.
    Finish,
    /// `expect refused P1 "cheat" because "..."`: the move is not allowed now (for the reason,
    /// if given); the game does not change.
    ExpectRefused {
        seat: Option<Expr>,
        mv: Text,
        because: Option<Text>,
    },
    /// `expect game over` (true) or `expect not over` (false).
    ExpectOver(bool),
    /// `rolls 3, 3, 5`: the next dice rolled give these faces.
    Rolls(Vec<Expr>),
    /// `picks P2`: the next `random` picks give these values.
    Picks(Vec<Expr>),
    /// `shuffles [c, a]`: the next `shuffle` puts these first, in this order.
    Shuffles(Expr),
    /// `before setup { ... }`: steps taken before `setup` runs.
    BeforeSetup(Vec<Step>),
}

/// A type as written.
#[derive(Debug, Clone)]
pub enum TypeExpr {
    /// `int` or `int in lo..hi` (assignments clamp to the bounds).
    Int {
        bounds: Option<Box<Expr>>,
        span: Span,
    },
    /// `bool`
    Bool(Span),
    /// `player`
    Player(Span),
    /// `list of T`
    List(Box<TypeExpr>, Span),
    /// `T by E`, `T by lo..hi` or `T by player`: one `T` for each value of the enum `E`, each
    /// number of the range or each seat. `T` may be a map: `int by gem by player`.
    Map(Box<TypeExpr>, MapKey, Span),
    /// An enum or kind name.
    Named(Name),
}

/// What a map is indexed by, as written after `by`.
#[derive(Debug, Clone)]
pub enum MapKey {
    /// `int by gem` or `int by card`: the values of an enum or the instances of a kind (or a
    /// name that is meant to be one); the checker tells which.
    Enum(Name),
    /// `int by 1..5`: the numbers of a range, its ends checked to be constant or to follow
    /// the player count (`1..player_count`).
    Range(Box<Expr>),
    /// `int by player`: the seats, as many as the game has players.
    Player(Span),
}

impl MapKey {
    /// Where the key is written.
    pub fn span(&self) -> Span {
        match self {
            MapKey::Enum(n) => n.span,
            MapKey::Range(e) => e.span,
            MapKey::Player(s) => *s,
        }
    }
}

impl TypeExpr {
    /// Where the type is written.
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Int { span, .. }
            | TypeExpr::Bool(span)
            | TypeExpr::Player(span)
            | TypeExpr::List(_, span)
            | TypeExpr::Map(_, _, span) => *span,
            TypeExpr::Named(n) => n.span,
        }
    }
}

/// A braced sequence of statements.
#[derive(Debug, Clone)]
pub struct Block {
    /// The statements in order.
    pub stmts: Vec<Stmt>,
    /// The braces and all between.
    pub span: Span,
}

/// A statement with its span.
#[derive(Debug, Clone)]
pub struct Stmt {
    /// What the statement does.
    pub kind: StmtKind,
    /// The whole statement.
    pub span: Span,
}

/// `=`, `+=` or `-=`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssignOp {
    /// `=`
    Set,
    /// `+=`
    Add,
    /// `-=`
    Sub,
}

/// The statements of the effect language.
#[derive(Debug, Clone)]
pub enum StmtKind {
    /// `let x = expr`, `let x = choose ...`, `let x = roll ...`; `let x: card = none` with
    /// the local's type written.
    Let {
        name: Name,
        ty: Option<TypeExpr>,
        value: LetValue,
    },
    /// `p.coins += 3`, `p.hand[i] = x` for an element of a list, `grid[r][c] = x` for an
    /// element of an element.
    Assign {
        place: Vec<Name>,
        /// `[i]`, `[i][j]`, `[i].field`: the steps written, outermost first, each with the
        /// span of the target up to it (`p.hand[i]`); empty for the whole place.
        index: Vec<(PlaceStep, Span)>,
        op: AssignOp,
        value: Expr,
    },
    /// `if c { } else { }`
    If {
        cond: Expr,
        then: Block,
        otherwise: Option<Block>,
    },
    /// `for x in xs where c { }`
    For {
        var: Name,
        source: Expr,
        filter: Option<Expr>,
        body: Block,
    },
    /// `repeat n { }`
    Repeat { count: Expr, body: Block },
    /// `while c { }`
    While { cond: Expr, body: Block },
    /// `turn p` or `turn p only a, b`: p chooses one legal action.
    Turn { player: Expr, only: Vec<Name> },
    /// `window ps only a, d until d`: turns round the seats of ps until a full round of d.
    Window {
        players: Expr,
        only: Vec<Name>,
        until: Name,
    },
    /// `log "text {expr}"`: a line everyone sees.
    Log(Text),
    /// `tell p "text"`: a line only p sees.
    Tell { player: Expr, text: Text },
    /// `require cond else "reason"`: a precondition of an action.
    Require { cond: Expr, reason: Text },
    /// `prefer expr`: how much the bots' imagined players favour an action's move.
    Prefer(Expr),
    /// `end game` or `end game "why"`, with `winners xs` when the ending decides who wins.
    Finish(Option<Text>, Option<Expr>),
    /// `remove xs at i`: the element at position i taken out of a list variable and dropped;
    /// `remove xs[r] at i` (`index` its steps) from a list inside one.
    Remove {
        place: Vec<Name>,
        index: Vec<(PlaceStep, Span)>,
        at: Expr,
    },
    /// `eliminate p` or `eliminate p "why"`: the player is out of the game.
    Eliminate { player: Expr, reason: Option<Text> },
    /// `reveal c` (`shown` true) or `conceal c`: an instance shown to everyone wherever it
    /// lies, or no longer.
    Reveal { item: Expr, shown: bool },
    /// `secretly each p in ps choose [any of | at most k of | exactly k of] x "prompt" from xs
    /// then { ... }`
    Secretly {
        player: Name,
        players: Expr,
        /// How many elements each chooses, when several.
        count: Option<ChooseCount>,
        choice: Name,
        prompt: Text,
        options: Expr,
        then: Block,
    },
    /// `name(args)`: run an effect or a phase.
    Call { name: Name, args: Vec<Expr> },
    /// `match x { a, b { } else { } }`: one block run by the value of an enum.
    Match { value: Expr, arms: Vec<MatchArm> },
    /// `return`: leave the effect, action, phase, setup or flow running.
    Return,
    /// `break`: leave the innermost loop.
    Break,
    /// `continue`: go on with the innermost loop's next pass.
    Continue,
}

impl StmtKind {
    /// The blocks nested in the statement, in order: the one match over every statement kind
    /// that the passes walking nested bodies go through, so that a new kind with a block is
    /// a compile error here rather than a body skipped.
    pub fn bodies(&self) -> Vec<&Block> {
        match self {
            StmtKind::If {
                then, otherwise, ..
            } => std::iter::once(then).chain(otherwise).collect(),
            StmtKind::For { body, .. }
            | StmtKind::Repeat { body, .. }
            | StmtKind::While { body, .. }
            | StmtKind::Secretly { then: body, .. } => vec![body],
            StmtKind::Match { arms, .. } => arms.iter().map(|arm| &arm.body).collect(),
            StmtKind::Let { .. }
            | StmtKind::Assign { .. }
            | StmtKind::Turn { .. }
            | StmtKind::Window { .. }
            | StmtKind::Log(_)
            | StmtKind::Tell { .. }
            | StmtKind::Require { .. }
            | StmtKind::Prefer(_)
            | StmtKind::Finish(..)
            | StmtKind::Remove { .. }
            | StmtKind::Eliminate { .. }
            | StmtKind::Reveal { .. }
            | StmtKind::Call { .. }
            | StmtKind::Return
            | StmtKind::Break
            | StmtKind::Continue => Vec::new(),
        }
    }
}

/// One arm of a `match`: the values it takes, or `else`, and its block.
#[derive(Debug, Clone)]
pub struct MatchArm {
    /// The values listed; empty for `else`.
    pub values: Vec<MatchValue>,
    /// The block run for them.
    pub body: Block,
    /// From the first value (or `else`) to the end of the block.
    pub span: Span,
}

/// A value an arm of a `match` lists.
#[derive(Debug, Clone)]
pub enum MatchValue {
    /// An enum value, by name.
    Name(Name),
    /// `none`.
    None(Span),
}

/// The right-hand side of a `let`.
#[derive(Debug, Clone)]
pub enum LetValue {
    /// A plain expression.
    Expr(Expr),
    /// `choose [always ask] [secretly] [any of | at most k of | exactly k of] p "prompt" from
    /// options`
    Choose {
        player: Expr,
        prompt: Text,
        options: Expr,
        secret: bool,
        /// How many elements, when several are chosen as one decision.
        count: Option<ChooseCount>,
        /// `always ask`, where it is written: asked even with a single option.
        always_ask: Option<Span>,
    },
    /// `ask p "prompt" (yes_word, no_word)`: a yes/no decision.
    Ask {
        player: Expr,
        prompt: Text,
        words: Option<(Name, Name)>,
    },
    /// `roll d6` or `roll n of d6`
    Roll { count: Option<Expr>, die: Name },
    /// `random xs`: one element picked by the game's RNG.
    Random(Expr),
    /// `shuffle xs`: the list in an order drawn by the game's RNG.
    Shuffle(Expr),
    /// `pop xs` or `pop n of xs`: the last element, or the last n, taken off a list variable;
    /// `pop xs at i`: the element at position i. `pop decks[2]`: from a list inside a list
    /// (`index` its `[i]` and `.field` steps, each with the span of the target up to it).
    Pop {
        count: Option<Expr>,
        place: Vec<Name>,
        index: Vec<(PlaceStep, Span)>,
        at: Option<Expr>,
    },
}

/// How many elements a choice of several takes: `any of`, `at most k of`, `exactly k of`.
#[derive(Debug, Clone)]
pub struct ChooseCount {
    /// Which of the three.
    pub kind: CountKind,
    /// The words, from `any`/`at`/`exactly` to `of`.
    pub span: Span,
}

/// The bound of a [`ChooseCount`].
#[derive(Debug, Clone)]
pub enum CountKind {
    /// `any of`: none, some or all.
    Any,
    /// `at most k of`.
    AtMost(Expr),
    /// `exactly k of`.
    Exactly(Expr),
    /// `lo..hi of`: at least `lo`, at most `hi` (the checker requires a range).
    Between(Expr),
}

/// A string with `{expr}` interpolations.
#[derive(Debug, Clone)]
pub struct Text {
    /// Literal and interpolated parts in order.
    pub parts: Vec<TextPart>,
    /// The quotes and all between.
    pub span: Span,
}

impl Text {
    /// The text when it has no interpolations.
    pub fn literal(&self) -> Option<String> {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                TextPart::Lit(s) => out.push_str(s),
                TextPart::Expr(_) | TextPart::If { .. } | TextPart::Each { .. } => return None,
            }
        }
        Some(out)
    }
}

/// A piece of a [`Text`].
#[derive(Debug, Clone)]
pub enum TextPart {
    /// Literal characters, escapes resolved.
    Lit(String),
    /// `{expr}`
    Expr(Expr),
    /// `{if cond then "..." else "..."}`: a part written only when `cond` holds (or the other).
    If {
        /// The condition.
        cond: Expr,
        /// Written when it holds.
        then: Text,
        /// Written when it does not (a text, or another `if`'s text); nothing if absent.
        otherwise: Option<Text>,
    },
    /// `{each x in xs where cond "..." sep ", "}`: a part written once for each element kept.
    Each {
        /// The bound variable.
        var: Name,
        /// The list it ranges over.
        source: Expr,
        /// `where` filter.
        filter: Option<Expr>,
        /// Written for each element.
        body: Text,
        /// Written between two elements; nothing if absent.
        sep: Option<Text>,
    },
}

/// An expression with its span.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What the expression computes.
    pub kind: ExprKind,
    /// The whole expression.
    pub span: Span,
}

/// Binary operators, loosest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `or`
    Or,
    /// `and`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `in`
    In,
    /// `not in`
    NotIn,
    /// `..` (inclusive range)
    Range,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (rounds down)
    Div,
    /// `%`
    Mod,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::In => "in",
            BinOp::NotIn => "not in",
            BinOp::Range => "..",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
        }
    }
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `not`
    Not,
    /// `-`
    Neg,
}

/// A comprehension: `x in xs where c by k1, k2` or `f(x) for x in xs where c`.
#[derive(Debug, Clone)]
pub struct Comprehension {
    /// The bound variable.
    pub var: Name,
    /// The collection it ranges over.
    pub source: Box<Expr>,
    /// `where` filter.
    pub filter: Option<Box<Expr>>,
    /// `expr for x in ...`: the mapped value.
    pub map: Option<Box<Expr>>,
    /// `by k1, k2`: sort keys, for `top` and `bottom`.
    pub keys: Vec<Expr>,
}

/// The expression forms.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// `42`
    Int(i64),
    /// `true`, `false`
    Bool(bool),
    /// `none`: no player, no instance.
    None,
    /// `me`: the player taking the action.
    Me,
    /// A name: local, parameter, variable, enum value, kind, `players`.
    Name(Name),
    /// `f(a, b)`: a def or a built-in function.
    Call { name: Name, args: Vec<Expr> },
    /// `clue(colour: red, number: 3)`: a record built from named fields.
    Record {
        name: Name,
        fields: Vec<(Name, Expr)>,
    },
    /// `e.field`
    Field { base: Box<Expr>, field: Name },
    /// `xs[i]`: the element at position i (from 1) of a list, or at enum value i of a map.
    Index { base: Box<Expr>, index: Box<Expr> },
    /// `a + b`
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `not a`, `-a`
    Unary { op: UnOp, operand: Box<Expr> },
    /// `if c then a else b`
    If {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    /// `[a, b, c]`
    List(Vec<Expr>),
    /// `[x in xs where c]` or, as a call argument, `x in xs where c`.
    Comprehension(Comprehension),
    /// `by players { 3: a, 4..5: b }`
    ByPlayers(Vec<(Expr, Expr)>),
}
