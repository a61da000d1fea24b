//! The resolved program: every name turned into a dense index, every block in one arena.
//!
//! Invariant: the engine never looks a name up while playing; names here exist only for
//! rendering views, logs and moves.

use crate::diag::{SourceMap, Span};

mod builtins;
pub mod inline;
mod list;
pub mod memo;
mod plan;
pub mod roots;
mod walk;
pub use crate::syntax::ast::{AssignOp, BinOp, UnOp, Visibility};
pub use builtins::{Builtin, Facts, Words};
pub use list::List;
pub use plan::{reads_locals, MovePlan};
pub use walk::{Part, PartMut, PartRef};

macro_rules! id {
    ($(#[$doc:meta] $name:ident),* $(,)?) => {$(
        #[$doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);
        impl $name {
            /// The index as usize.
            pub fn index(self) -> usize { self.0 as usize }
        }
    )*};
}

id!(
    /// An enum declaration.
    EnumId,
    /// A global variable.
    GlobalId,
    /// A per-player variable.
    PlayerVarId,
    /// A kind of entity.
    KindId,
    /// A record: a value with named fields.
    RecordId,
    /// A field of a kind.
    FieldId,
    /// A die.
    DieId,
    /// A table of constant rows.
    TableId,
    /// A pure function (`def`).
    DefId,
    /// A procedure: effect, phase, flow or setup.
    ProcId,
    /// An action.
    ActionId,
    /// A block of statements.
    BlockId,
);

/// A local variable slot in the current frame.
pub type Slot = u16;

/// The static type of a value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    /// Whole numbers.
    Int,
    /// Truth values.
    Bool,
    /// A seat.
    Player,
    /// A value of an enum.
    Enum(EnumId),
    /// An instance of a kind.
    Entity(KindId),
    /// A value of a record, kept at run time as a list of its fields in declaration order
    /// (`.field` is a position the checker works out).
    Record(RecordId),
    /// A list.
    List(Box<Type>),
    /// `T by E`, `T by lo..hi`, `T by player` or `T by K`: one `T` for each value of an enum,
    /// number of a range, seat or instance of a kind, kept at run time as a list in the keys'
    /// order; indexed by a key, never by a position. `T` may be a map itself
    /// (`int by gem by player`: a list of lists).
    Map(Box<Type>, MapKey),
    /// `none`: fits any player, enum or instance.
    Nothing,
    /// A type already reported as wrong; fits everything, so one mistake is reported once.
    Error,
}

/// The keys of a map: the values of an enum, the numbers of a range, the seats, or the
/// instances of a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MapKey {
    /// `int by gem`.
    Enum(EnumId),
    /// `int by lo..hi`, both ends included, `lo <= hi`.
    Range(i64, i64),
    /// `int by 1..player_count`: a range whose ends follow the player count, worked out for
    /// each count in `Program::key_ranges` (one entry for equal ends, so that two maps
    /// written alike have one type).
    PlayerRange(u32),
    /// `int by player`: one entry per seat, as many as the game has players, in seat order.
    Player,
    /// `int by card`: one entry per instance of a kind, in instance order, as many as the
    /// kind has when the game starts.
    Kind(KindId),
}

/// The ends of a map's range that follows the player count (`int by 1..player_count`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRange {
    /// For each player count (the index), the range's ends, both included; `None` for a count
    /// the game is not played by.
    pub ends: Vec<Option<(i64, i64)>>,
    /// The range as the rules first wrote it: `1..player_count`.
    pub written: String,
}

impl KeyRange {
    /// The ends in a game of `players` players; `(1, 0)`, no key, for a count the game is not
    /// played by.
    pub fn ends_for(&self, players: u8) -> (i64, i64) {
        self.ends
            .get(players as usize)
            .copied()
            .flatten()
            .unwrap_or((1, 0))
    }
}

impl MapKey {
    /// The type of a key.
    pub fn key_type(self) -> Type {
        match self {
            MapKey::Enum(e) => Type::Enum(e),
            MapKey::Range(..) | MapKey::PlayerRange(_) => Type::Int,
            MapKey::Player => Type::Player,
            MapKey::Kind(k) => Type::Entity(k),
        }
    }
}

impl Type {
    /// True if a value of type `other` may stand where `self` is expected.
    pub fn accepts(&self, other: &Type) -> bool {
        match (self, other) {
            (Type::Error, _) | (_, Type::Error) => true,
            (Type::Player | Type::Enum(_) | Type::Entity(_) | Type::Nothing, Type::Nothing) => true,
            (Type::Nothing, Type::Player | Type::Enum(_) | Type::Entity(_)) => true,
            (Type::List(a), Type::List(b)) => a.accepts(b),
            (Type::Map(a, e), Type::Map(b, f)) => e == f && a.accepts(b),
            (a, b) => a == b,
        }
    }

    /// The element type of a list type.
    pub fn element(&self) -> Option<Type> {
        match self {
            Type::List(t) => Some((**t).clone()),
            Type::Error => Some(Type::Error),
            _ => None,
        }
    }
}

/// A value at run time.
///
/// Two whole words: the tag, and one word of payload in every variant (a truth value, a
/// seat, an enum value and an instance are each packed into a word). So a value is a pair of
/// scalars to the compiler, kept in two registers and copied as two words: a tag beside
/// narrower fields was written in parts and copied whole, and the processor cannot forward
/// several stores to one wider load (measured: a third of the evaluator's time in such waits
/// with a tag byte; with a word tag beside narrow fields, still three quarters of the time of
/// the function that puts `me` in a turn's slots; docs/performance-log.md).
/// `Clone` is written by hand and copies every variant but `List` bit for bit: a variant that
/// holds anything but `Copy` data needs an arm of its own there.
#[derive(Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u64)]
pub enum Value {
    /// No value (`none`).
    None,
    /// A truth value.
    Bool(Truth),
    /// A whole number.
    Int(i64),
    /// A seat, 0-based.
    Player(Seat),
    /// An enum value: enum and index.
    Enum(EnumValue),
    /// An instance: kind and index.
    Entity(Instance),
    /// A list, shared until written.
    List(List),
}

/// A truth value in a whole word (see [`Value`]).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Truth(u64);

impl Truth {
    /// The word for `b`.
    #[inline]
    pub const fn new(b: bool) -> Truth {
        Truth(b as u64)
    }

    /// The truth value.
    #[inline]
    pub const fn get(self) -> bool {
        self.0 != 0
    }
}

impl std::fmt::Debug for Truth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

/// A seat (0-based) in a whole word (see [`Value`]).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seat(u64);

impl Seat {
    /// The word for seat `p`.
    #[inline]
    pub const fn new(p: u8) -> Seat {
        Seat(p as u64)
    }

    /// The seat.
    #[inline]
    pub const fn get(self) -> u8 {
        self.0 as u8
    }
}

impl std::fmt::Debug for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

/// A value of a numbered set in one word: which set in the high half, the index within it in
/// the low, so that values order by set, then index (see [`Value`]).
macro_rules! packed {
    ($(#[$doc:meta])* $name:ident of $set:ident, $set_of:ident: $index:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(u64);

        impl $name {
            /// Number `index` of `set`.
            #[inline]
            pub const fn new(set: $set, index: $index) -> $name {
                $name(((set.0 as u64) << 32) | index as u64)
            }

            /// The set it belongs to.
            #[inline]
            pub const fn $set_of(self) -> $set {
                $set((self.0 >> 32) as u32)
            }

            /// Its index within the set.
            #[inline]
            pub const fn index(self) -> $index {
                self.0 as $index
            }

            /// The word itself.
            #[inline]
            pub const fn word(self) -> u64 {
                self.0
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{:?}, {:?}", self.$set_of(), self.index())
            }
        }
    };
}

packed!(
    /// An enum value in a whole word: its enum and its index (see [`Value`]).
    EnumValue of EnumId, enum_id: u16
);
packed!(
    /// An instance in a whole word: its kind and its index (see [`Value`]).
    Instance of KindId, kind: u32
);

/// A clone is a copy of the two words, and a count taken on a list's elements. The derived
/// clone matched on every variant, an indirect jump that the processor could not predict at
/// every read of a value.
impl Clone for Value {
    #[inline]
    fn clone(&self) -> Value {
        match self {
            Value::List(xs) => Value::List(xs.clone()),
            // SAFETY: every variant but `List` holds only `Copy` data, so a bitwise copy of it
            // is a clone of it, and nothing it holds is dropped twice.
            _ => unsafe { std::ptr::read(self) },
        }
    }
}

impl Value {
    /// `true` or `false`.
    #[inline]
    pub const fn bool(b: bool) -> Value {
        Value::Bool(Truth::new(b))
    }

    /// Seat `p` (0-based).
    #[inline]
    pub const fn player(p: u8) -> Value {
        Value::Player(Seat::new(p))
    }

    /// Value `index` of enum `e`.
    #[inline]
    pub const fn enum_value(e: EnumId, index: u16) -> Value {
        Value::Enum(EnumValue::new(e, index))
    }

    /// Instance `index` of kind `k`.
    #[inline]
    pub const fn entity(k: KindId, index: u32) -> Value {
        Value::Entity(Instance::new(k, index))
    }

    /// Puts `new` here and drops the value it replaces. `*place = new` keeps `new` in memory
    /// while the old value is dropped (a drop may unwind) and copies it whole afterwards, just
    /// after writing it in two words: a load the processor cannot forward, at every write.
    /// Here `new` goes straight from registers into place.
    #[inline(always)]
    pub fn put(&mut self, new: Value) {
        drop(std::mem::replace(self, new));
    }

    /// The seats a list holds, sorted and each once (anything else is ignored).
    pub fn seats(&self) -> Vec<u8> {
        let mut seats: Vec<u8> = match self {
            Value::List(xs) => xs
                .iter()
                .filter_map(|v| match v {
                    Value::Player(p) => Some(p.get()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        seats.sort_unstable();
        seats.dedup();
        seats
    }
}

/// An enum and its values.
#[derive(Debug, Clone)]
pub struct EnumDef {
    /// The enum's name.
    pub name: String,
    /// Its values, in order.
    pub values: Vec<String>,
    /// How each value is shown and typed: its name, or its `shown as` text.
    pub shown: Vec<String>,
}

/// A variable: global, per player, or a field of a kind.
#[derive(Debug, Clone)]
pub struct VarDef {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Clamping bounds for `int in lo..hi`: when they follow the player count, the widest.
    pub bounds: Option<(i64, i64)>,
    /// The bounds for each player count (indexed by it) when they follow it
    /// (`int in 0..5 * player_count`); empty when they are constant.
    pub bounds_by_players: Vec<Option<(i64, i64)>>,
    /// Who may see it.
    pub visibility: Visibility,
    /// Its initial value (evaluated at the start of a game, with `me` unbound).
    pub init: Expr,
    /// `visible when`: slot 0 holds the viewer (`none` for onlookers), slot 1 the owner or
    /// the instance (boxed, as it is seldom written).
    pub visible_when: Option<Box<EndFn>>,
    /// `visible first k` / `visible last k`: the part of a list everyone may see, where the
    /// whole is not visible (boxed, as it is seldom written).
    pub visible_part: Option<Box<VisiblePart>>,
    /// `shown when`: whether views draw it at all; slot 0 holds the owner or the instance
    /// (`none` for a game variable). Proved by the checker to read only what everyone sees.
    pub shown_when: Option<Box<EndFn>>,
    /// Where it is declared.
    pub span: Span,
}

/// The elements at one end of a hidden list that everyone may see.
#[derive(Debug, Clone)]
pub struct VisiblePart {
    /// The end they lie at.
    pub end: crate::syntax::ast::End,
    /// How many: slot 0 holds the owner or the instance (`none` for a game variable). The
    /// checker proved it reads only what everyone sees, so every viewer sees the same part.
    pub count: EndFn,
}

impl VarDef {
    /// Its clamping bounds in a game of `players` players.
    pub fn bounds_for(&self, players: u8) -> Option<(i64, i64)> {
        match self.bounds_by_players.get(players as usize) {
            Some(b) => *b,
            None => self.bounds,
        }
    }
}

/// A kind of entity: a fixed number of instances with fields.
#[derive(Debug, Clone)]
pub struct KindDef {
    /// Its name.
    pub name: String,
    /// How many instances (may depend on the player count).
    pub count: Expr,
    /// Instance names, for `kind x named a, b, c`; empty for numbered instances.
    pub names: Vec<String>,
    /// The slot holding `index` (counting from 1) while field initial values are evaluated.
    pub index_slot: Option<Slot>,
    /// `kind x from table`: the slot holding `row` while field initial values are evaluated,
    /// and the row (counting from 1) of each instance, in order; empty otherwise.
    pub rows: (Option<Slot>, Vec<u32>),
    /// `shown as`: the name of each instance, with the instance in slot 0, rendered once at the
    /// start of a game.
    pub label: Option<(Text, usize)>,
    /// `listed when`: which instances views list (the instance in slot 0).
    pub listed: Option<EndFn>,
    /// The fields of every instance.
    pub fields: Vec<VarDef>,
    /// True if some rule writes a field; kinds whose fields never change (a deck's cards) are
    /// named in views but not listed.
    pub mutable: bool,
}

/// A record: a value with named fields, kept as a list of them in this order.
#[derive(Debug, Clone)]
pub struct RecordDef {
    /// Its name.
    pub name: String,
    /// Its fields' names and types, in order.
    pub fields: Vec<(String, Type)>,
    /// `shown as`: how a value is shown, with the value in slot 0, and the slots it needs.
    pub label: Option<(Text, usize)>,
    /// Who may see each field, in order: `None` for a field seen by whoever sees the record.
    pub veils: Vec<Option<FieldVeil>>,
}

/// Who may see one field of a record, among those who see the value that holds the record.
#[derive(Debug, Clone)]
pub struct FieldVeil {
    /// `secret` (the seat whose variable holds the record) or `hidden` (nobody).
    pub visibility: Visibility,
    /// `visible when`: slot 0 the viewer (`none` for onlookers), slot 1 the owner (the seat
    /// whose variable holds the record, `none` elsewhere), slot 2 the record.
    pub visible_when: Option<EndFn>,
}

impl RecordDef {
    /// Whether `ty` holds a value of a record anywhere (itself, its elements, its entries), so
    /// that only its type can say how it is shown.
    pub fn within(ty: &Type) -> bool {
        match ty {
            Type::Record(_) => true,
            Type::List(t) | Type::Map(t, _) => RecordDef::within(t),
            _ => false,
        }
    }
}

/// A die and its faces.
#[derive(Debug, Clone)]
pub struct DieDef {
    /// Its name.
    pub name: String,
    /// Its faces, evaluated once at load.
    pub faces: Vec<i64>,
}

/// The most parameters an action may have: moves are listed with a fixed odometer of this size
/// (the engine), and the checker refuses more.
pub const MAX_PARAMS: usize = 8;

/// The most instances a kind may have: the engine refuses more when a game starts, and the
/// checker lists no more of a kind made from a table.
pub const MAX_INSTANCES: i64 = 10_000;

/// The most `[i]` and `.field` steps a `pop` or `remove` takes into a list inside a place, so
/// that the engine holds their positions without allocating.
pub const MAX_PATH: usize = 8;

/// A pure function.
#[derive(Debug, Clone)]
pub struct DefDef {
    /// Its name.
    pub name: String,
    /// Number of parameters (they take the first slots).
    pub arity: usize,
    /// Slots needed, parameters included.
    pub locals: usize,
    /// Its body.
    pub body: Expr,
    /// True if its calls are looked up while the state stands still ([`memo`]).
    pub remembered: bool,
    /// The variables it reads, itself or through the defs it calls ([`memo::Variables`]), when
    /// it is remembered and reads few: its results then last until one of them is written.
    /// `None`: until anything is written.
    pub reads: Option<Box<[u32]>>,
    /// True if it gives a list.
    pub gives_list: bool,
    /// Where it is declared.
    pub span: Span,
}

/// What a procedure is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProcKind {
    /// `effect name(...)`
    Effect,
    /// `phase name`
    Phase,
    /// `flow`
    Flow,
    /// `setup`
    Setup,
}

/// A procedure: statements run with their own local slots.
#[derive(Debug, Clone)]
pub struct ProcDef {
    /// Its name (`flow` and `setup` for those).
    pub name: String,
    /// What it is.
    pub kind: ProcKind,
    /// Number of parameters.
    pub arity: usize,
    /// Slots needed.
    pub locals: usize,
    /// Its body.
    pub body: BlockId,
    /// Where it is declared.
    pub span: Span,
}

/// A precondition of an action.
#[derive(Debug, Clone)]
pub struct Require {
    /// Must hold for the action to be legal.
    pub cond: Expr,
    /// Why not, when it does not.
    pub reason: Text,
    /// The whole `require` statement.
    pub span: Span,
}

/// A table: rows of constant values, one per column, worked out when the rules are checked.
#[derive(Debug, Clone)]
pub struct TableDef {
    /// Its name.
    pub name: String,
    /// Its columns' names and types.
    pub columns: Vec<(String, Type)>,
    /// Its rows, each one value per column.
    pub rows: Vec<Vec<Value>>,
}

/// The most values one action parameter may take: each is a move offered on every turn. The
/// checker refuses a range always wider; the engine stops a game whose range is wider now.
pub const MAX_PARAM_VALUES: i64 = 1000;

/// A parameter of an action: its name, type and, for `int in lo..hi`, its bounds.
#[derive(Debug, Clone)]
pub struct ActionParam {
    /// The parameter's name.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Its bounds, for ints: the range itself, or, when `range` is set, the widest range that
    /// the checker proved its ends stay within. `None` with `range` set: no proof of at most
    /// [`MAX_PARAM_VALUES`] values, so the engine checks the range's width each time.
    pub bounds: Option<(i64, i64)>,
    /// Only the player who moves sees its value: others read the move with it hidden.
    pub secret: bool,
    /// For a set of distinct values (`exactly 3 of gem`; `ty` is then `list of T`): the fewest
    /// and the most elements it holds.
    pub set: Option<(u32, u32)>,
    /// The ends of `int in lo..hi` when they are expressions (`1..me.coins`), evaluated with
    /// `me` bound each time moves are listed.
    pub range: Option<Box<(Expr, Expr)>>,
}

impl ActionParam {
    /// Whether its range is measured each time moves are listed, as the checker proved no
    /// bound for it.
    pub fn bounded_in_play(&self) -> bool {
        self.range.is_some() && self.bounds.is_none()
    }
}

/// An action a player can take on a turn.
#[derive(Debug, Clone)]
pub struct ActionDef {
    /// Its name: the first word of its moves.
    pub name: String,
    /// Help text.
    pub description: Option<String>,
    /// Parameters; each has a finite domain. Slot 0 is `me`, parameters follow.
    pub params: Vec<ActionParam>,
    /// Preconditions, in order.
    pub requires: Vec<Require>,
    /// How much the bots' imagined players favour its moves (`prefer`), with `me` and the
    /// arguments bound as for the requirements; `None`: 0.
    pub prefer: Option<Expr>,
    /// Slots needed (`me` and parameters included).
    pub locals: usize,
    /// Slots its requirements and parameter ranges need (`me` and parameters included): a
    /// turn listing its moves sets up only these, not the body's.
    pub require_locals: usize,
    /// The effects.
    pub body: BlockId,
    /// Where it is declared.
    pub span: Span,
    /// How a turn lists its moves quickly.
    pub plan: MovePlan,
    /// `only when no other` (where it is written): a turn offers it only when no action of
    /// its offer without this has a move.
    pub last_resort: Option<Span>,
}

/// A function of one player, or of none, evaluated at the end.
#[derive(Debug, Clone)]
pub struct EndFn {
    /// Slots needed.
    pub locals: usize,
    /// The body.
    pub body: Expr,
}

impl Program {
    /// The functions run at the end, each once a seat or once: `score`, `winners`, `goal`.
    pub fn ends_mut(&mut self) -> impl Iterator<Item = &mut EndFn> {
        let goal = self.goal.as_mut().map(|g| &mut g.end);
        self.score
            .iter_mut()
            .chain(self.winners.iter_mut())
            .chain(goal)
    }
}

/// `goal(p) = ...`: what a seat plays for, as the bots see it.
#[derive(Debug, Clone)]
pub struct Goal {
    /// The value of the goal to the seat in slot 0.
    pub end: EndFn,
    /// True if the body never reads the seat: every seat plays for one value together.
    pub shared: bool,
}

/// A declared fact that must hold after every decision.
#[derive(Debug, Clone)]
pub struct Invariant {
    /// Its name.
    pub name: String,
    /// What it means.
    pub description: Option<String>,
    /// The condition, in a frame of `locals` slots.
    pub check: EndFn,
    /// Where it is declared.
    pub span: Span,
}

/// A value views show, worked out whenever a view is drawn and stored nowhere (`show`).
#[derive(Debug, Clone)]
pub struct ShowDef {
    /// Its name, as views label it.
    pub name: String,
    /// One value a seat (slot 0: the seat, `owner`), or one for the table.
    pub per_player: bool,
    /// The value, in a frame of `locals` slots.
    pub value: EndFn,
    /// A text shown instead of the value, in the same frame (then `value` is `none`).
    pub text: Option<Text>,
    /// The value's type; `None` where it is a text.
    pub ty: Option<Type>,
    /// Who may see it, proved by the checker from what it reads.
    pub seen_by: SeenBy,
    /// `shown when`: whether views draw it at all, in a frame of its own (slot 0: the seat of
    /// a `player show`). Proved by the checker to read only what everyone sees.
    pub shown_when: Option<EndFn>,
}

/// Who may see a [`ShowDef`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeenBy {
    /// It reads only what every seat and onlooker sees.
    Everyone,
    /// It reads its owner's own secrets too: only that seat (and a referee) sees it.
    Owner,
}

/// A designer's test: a position set up or played from a seed, and what must then hold.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// What it shows.
    pub title: String,
    /// How many play (the game's minimum if not given).
    pub players: Option<u8>,
    /// The seed (1 if not given).
    pub seed: u64,
    /// Slots for the seat names (P1, P2, ...), bound to the seats in order.
    pub locals: usize,
    /// The steps taken before `setup` runs (`before setup { ... }`), in order.
    pub before_setup: Vec<ScenarioStep>,
    /// The steps in order.
    pub steps: Vec<ScenarioStep>,
    /// Where it is written.
    pub span: Span,
}

/// One step of a scenario.
#[derive(Debug, Clone)]
pub struct ScenarioStep {
    /// What it does.
    pub kind: ScenarioStepKind,
    /// Where it is written.
    pub span: Span,
}

/// The resolved steps of a scenario.
#[derive(Debug, Clone)]
pub enum ScenarioStepKind {
    /// Moves as typed, by a seat or by whoever must decide.
    Play {
        seat: Option<Expr>,
        moves: Vec<String>,
    },
    /// Random bots play until the condition holds or the game ends.
    RunUntil(Expr),
    /// Name a value for later steps.
    Let(Slot, Expr),
    /// Change the position by hand.
    Set(Place, Expr),
    /// Take an item out of the list that holds it and put it into another, keeping every item
    /// in one place.
    Move(Box<MoveStep>),
    /// A condition that must hold now.
    Expect(Expr),
    /// End the game where it stands and compare the winners.
    ExpectWinners(Expr),
    /// End the game where it stands.
    Finish,
    /// The move must be refused now (for a reason containing `because`, if given).
    ExpectRefused {
        seat: Option<Expr>,
        mv: String,
        because: Option<String>,
    },
    /// The game must be over (true) or still going (false).
    ExpectOver(bool),
    /// The next dice rolled give these faces.
    Rolls(Vec<Expr>),
    /// The next `random` picks give these values.
    Picks(Vec<Expr>),
    /// The next `shuffle` puts these values first, in this order.
    Shuffles(Expr),
}

/// A scenario's `move`: what moves, from where, to where.
#[derive(Debug, Clone)]
pub struct MoveStep {
    /// The item.
    pub item: Expr,
    /// The list it leaves, if named (`from`), and where that is written; else the only list
    /// that holds it.
    pub from: Option<(Place, Span)>,
    /// The list it joins, and where that is written.
    pub to: (Place, Span),
    /// Its position there, from 1 (last if not given).
    pub at: Option<Expr>,
}

/// A group of initial values computed together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum InitItem {
    /// Every field of every instance of a kind.
    Fields(KindId),
    /// A global variable.
    Global(GlobalId),
    /// A per-player variable, for every player.
    PlayerVar(PlayerVarId),
}

/// `section "Heading" { ... }`: entries views draw under a heading rather than on the flat
/// lines. Layout only: who may see each entry, and the rules, are as without it.
#[derive(Debug, Clone)]
pub struct Section {
    /// The heading.
    pub heading: String,
    /// What it draws, in the order written.
    pub entries: Vec<SectionEntry>,
    /// `as table`: its lists are drawn side by side, a row per position.
    pub table: bool,
}

/// An entry of a section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionEntry {
    /// A game variable, by its index in `Program::globals`.
    Global(usize),
    /// A per-player variable, by its index in `Program::player_vars`.
    PlayerVar(usize),
    /// A `show` or `player show`, by its index in `Program::shows`.
    Show(usize),
}

impl Program {
    /// Whether `entry` is drawn under a section's heading rather than on the flat lines.
    pub fn in_section(&self, entry: SectionEntry) -> bool {
        self.sections.iter().any(|s| s.entries.contains(&entry))
    }
}

/// A whole resolved game.
#[derive(Debug, Clone)]
pub struct Program {
    /// The game's title.
    pub title: String,
    /// The variants applied, by title.
    pub variants: Vec<String>,
    /// Where the rules come from.
    pub source: Option<String>,
    /// Fewest players.
    pub min_players: u8,
    /// Most players.
    pub max_players: u8,
    /// Seat names, if the rules give them.
    pub seat_names: Vec<String>,
    /// `always ask`: a `choose` of one option waits for its player; by default it is taken
    /// without asking (and is no decision).
    pub always_ask: bool,
    /// Enums.
    pub enums: Vec<EnumDef>,
    /// Global variables.
    pub globals: Vec<VarDef>,
    /// Per-player variables.
    pub player_vars: Vec<VarDef>,
    /// Kinds of entity.
    pub kinds: Vec<KindDef>,
    /// Records: values with named fields.
    pub records: Vec<RecordDef>,
    /// Dice.
    pub dice: Vec<DieDef>,
    /// Tables of constant rows.
    pub tables: Vec<TableDef>,
    /// Pure functions.
    pub defs: Vec<DefDef>,
    /// Effects, phases, flow and setup.
    pub procs: Vec<ProcDef>,
    /// Actions.
    pub actions: Vec<ActionDef>,
    /// Every block of statements.
    pub blocks: Vec<Block>,
    /// The main flow.
    pub flow: ProcId,
    /// Run before the flow, if present.
    pub setup: Option<ProcId>,
    /// Score of one player (slot 0), if declared.
    pub score: Option<EndFn>,
    /// What each seat plays for (slot 0: the seat), if declared; otherwise a win.
    pub goal: Option<Goal>,
    /// The winners, if declared; otherwise the top scores share the win.
    pub winners: Option<EndFn>,
    /// Facts that must hold after every decision.
    pub invariants: Vec<Invariant>,
    /// Values views show, in the order declared.
    pub shows: Vec<ShowDef>,
    /// Headings views draw entries under (`section`), in the order written.
    pub sections: Vec<Section>,
    /// The designer's tests written in the file checked.
    pub scenarios: Vec<Scenario>,
    /// The source files, for rendering errors.
    pub sources: SourceMap,
    /// Slots needed to evaluate initial values and kind counts.
    pub init_locals: usize,
    /// The ranges of maps whose keys follow the player count (`MapKey::PlayerRange`).
    pub key_ranges: Vec<KeyRange>,
    /// Its variables numbered for remembered calls (set when checking finishes).
    pub variables: memo::Variables,
    /// The order in which initial values are computed (after kind counts), each after what it
    /// reads.
    pub init_order: Vec<InitItem>,
    /// Reads of a record's field that has a visibility of its own (`r.card`), by the span of
    /// the read: for the checker's analyses of what a seat may see, since a field read is
    /// lowered to an index.
    pub veiled_reads: std::collections::BTreeMap<Span, (RecordId, usize)>,
}

impl Program {
    /// Whether a value of type `ty` may hold a record field with a visibility of its own.
    pub fn veiled(&self, ty: &Type) -> bool {
        match ty {
            Type::Record(r) => self.records.get(r.index()).is_some_and(|d| {
                d.veils.iter().any(Option::is_some) || d.fields.iter().any(|(_, t)| self.veiled(t))
            }),
            Type::List(t) | Type::Map(t, _) => self.veiled(t),
            _ => false,
        }
    }

    /// The player counts the game allows, as a person reads them: `4`, or `3 to 5`.
    pub fn player_counts(&self) -> String {
        if self.min_players == self.max_players {
            self.min_players.to_string()
        } else {
            format!("{} to {}", self.min_players, self.max_players)
        }
    }

    /// The block with this id.
    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.index()]
    }

    /// The display name of seat `p` (0-based).
    pub fn seat_name(&self, p: u8) -> String {
        self.seat_names
            .get(p as usize)
            .cloned()
            .unwrap_or_else(|| format!("P{}", p + 1))
    }
}

/// A sequence of statements.
#[derive(Debug, Clone, Default)]
pub struct Block {
    /// The statements.
    pub stmts: Vec<Stmt>,
}

/// A statement with the span it came from.
#[derive(Debug, Clone)]
pub struct Stmt {
    /// What it does.
    pub kind: StmtKind,
    /// Where it was written.
    pub span: Span,
}

/// Where an assignment writes.
#[derive(Debug, Clone)]
pub enum Place {
    /// A local slot.
    Local(Slot),
    /// A global variable.
    Global(GlobalId),
    /// A per-player variable of the player the expression gives.
    PlayerVar(Expr, PlayerVarId),
    /// A field of the instance the expression gives.
    Field(Expr, KindId, FieldId),
}

/// Resolved statements.
#[derive(Debug, Clone)]
pub enum StmtKind {
    /// Bind a value.
    Let(Slot, Expr),
    /// Ask a player to pick one of a list, or several as one decision (`count`).
    Choose {
        slot: Slot,
        player: Expr,
        prompt: Text,
        options: Expr,
        secret: bool,
        count: Option<ChooseCount>,
        /// The type of each option, for showing it (a record reads by its fields' names).
        element: Type,
        /// Asked even when it has a single option: written `always ask`, or its options
        /// depend on what some seat may not see, so that being spared the question would tell.
        asked: bool,
    },
    /// Ask a player a yes/no question.
    Ask {
        slot: Slot,
        player: Expr,
        prompt: Text,
        yes: String,
        no: String,
    },
    /// Roll dice: one (an int) or several (a list).
    Roll {
        slot: Slot,
        count: Option<Expr>,
        die: DieId,
    },
    /// Pick one element at random.
    Random { slot: Slot, from: Expr },
    /// Shuffle a list.
    Shuffle { slot: Slot, from: Expr },
    /// Take the last element (or the last `count`, in order) off a list variable, or the one
    /// at position `at` (from 1); from a list inside it where `path` is not empty.
    Pop {
        slot: Slot,
        count: Option<Expr>,
        place: Place,
        /// The positions (from 1) of the list taken from inside the place's value, outermost
        /// first: `decks[2]` is `[2]`, a record's field its field's position.
        path: Vec<Expr>,
        at: Option<Expr>,
    },
    /// Write to a place.
    Assign {
        /// Where.
        place: Place,
        /// `=`, `+=` or `-=`.
        op: AssignOp,
        /// The value.
        value: Expr,
        /// For lists: the value is one element to add or remove, not a list of them.
        element: bool,
    },
    /// Branch.
    If {
        cond: Expr,
        then: BlockId,
        otherwise: Option<BlockId>,
    },
    /// Loop over a list.
    For {
        slot: Slot,
        source: Expr,
        filter: Option<Expr>,
        body: BlockId,
    },
    /// Loop a number of times.
    Repeat { count: Expr, body: BlockId },
    /// Loop while a condition holds.
    While { cond: Expr, body: BlockId },
    /// A player picks one legal action.
    Turn {
        player: Expr,
        actions: Vec<ActionId>,
    },
    /// Turns round the seats of `players`, each offered `actions`, until every seat has taken
    /// `decline` since the last other move (or could not move, or is out of the game).
    Window {
        players: Expr,
        actions: Vec<ActionId>,
        decline: ActionId,
        /// `players` as the window opened: a seat taken out later keeps its place, passed over.
        seats_slot: Slot,
        /// The place in `players` of the next seat asked.
        seat_slot: Slot,
        /// The seats in a row that declined (or were passed over) since the last other move.
        quiet_slot: Slot,
    },
    /// A line for everyone.
    Log(Text),
    /// A line for one player.
    Tell { player: Expr, text: Text },
    /// End the game now, with the winners it names (a list of players) or by the rules.
    Finish(Option<Text>, Option<Expr>),
    /// A player is out of the game, with the reason logged.
    Eliminate { player: Expr, reason: Option<Text> },
    /// An instance shown to everyone wherever it lies (`reveal`), or no longer (`conceal`).
    Reveal { item: Expr, shown: bool },
    /// Several players choose at once, in secret; then the block runs for each.
    Secretly {
        player_slot: Slot,
        players: Expr,
        /// How many elements each chooses, when several.
        count: Option<ChooseCount>,
        choice_slot: Slot,
        prompt: Text,
        options: Expr,
        /// The type of each option, for showing it (a record reads by its fields' names).
        element: Type,
        /// A seat that may pick nothing is asked all the same: how many it may pick depends on
        /// what some seat may not see.
        asked: bool,
        then: BlockId,
    },
    /// Run a procedure.
    Call { proc: ProcId, args: Vec<Expr> },
    /// Run the block of the arm that takes the enum value: `arms[i]` for value `i`.
    Match {
        value: Expr,
        arms: Vec<Option<BlockId>>,
        /// The arm for `none`, if one lists it.
        none: Option<BlockId>,
        /// The `else` arm.
        otherwise: Option<BlockId>,
    },
    /// Leave the running procedure or action.
    Return,
    /// Leave the innermost loop.
    Break,
    /// Go on with the innermost loop's next pass.
    Continue,
}

/// How many elements a choice of several takes (its result is a list of them, in list order).
#[derive(Debug, Clone)]
pub enum ChooseCount {
    /// `any of`: none to all.
    Any,
    /// `at most k of`.
    AtMost(Expr),
    /// `exactly k of`.
    Exactly(Expr),
    /// `lo..hi of`: at least the first, at most the second.
    Between(Expr, Expr),
}

/// A text with interpolations.
#[derive(Debug, Clone, Default)]
pub struct Text {
    /// The parts in order.
    pub parts: Vec<TextPart>,
}

/// A piece of a [`Text`].
#[derive(Debug, Clone)]
pub enum TextPart {
    /// Literal text.
    Lit(String),
    /// A value to render.
    Expr(Expr),
    /// A value rendered by its type: one that holds a record, which the run time cannot tell
    /// from a list (`clue(colour: red, number: 3)`, or the record's `shown as` text).
    Typed(Expr, Type),
    /// `{if cond then "..." else "..."}`: one of two texts.
    If {
        /// The condition.
        cond: Expr,
        /// Rendered when it holds.
        then: Text,
        /// Rendered when it does not (empty when the designer wrote no `else`).
        otherwise: Text,
    },
    /// `{each x in xs where cond "..." sep ", "}`: a text rendered once per element kept.
    Each {
        /// The bound variable's slot.
        slot: Slot,
        /// The list.
        source: Expr,
        /// Which elements.
        filter: Option<Expr>,
        /// Rendered for each element.
        body: Text,
        /// Rendered between two elements.
        sep: Text,
    },
}

/// An expression with the span it came from.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What it computes.
    pub kind: ExprKind,
    /// Where it was written.
    pub span: Span,
    /// Its compiled code's number, for an expression the engine evaluates from outside an
    /// expression (a condition, a def's body, an assigned value: see [`roots`]); [`NOT_ROOT`]
    /// for the others, which are compiled as part of their root.
    pub root: u32,
}

/// The [`Expr::root`] of an expression that is not numbered.
pub const NOT_ROOT: u32 = u32::MAX;

impl Expr {
    /// An expression not (yet) numbered as a root.
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr {
            kind,
            span,
            root: NOT_ROOT,
        }
    }
}

impl Expr {
    /// True if `f` holds for one of the expressions directly inside this one (a call's
    /// arguments, not the called def's body).
    pub fn any_child(&self, mut f: impl FnMut(&Expr) -> bool) -> bool {
        match &self.kind {
            ExprKind::Const(_)
            | ExprKind::Local(_)
            | ExprKind::Global(_)
            | ExprKind::EnumValues(_)
            | ExprKind::Instances(_)
            | ExprKind::Players
            | ExprKind::AllPlayers
            | ExprKind::PlayerCount => false,
            ExprKind::PlayerVar(x, _) | ExprKind::Field(x, _, _) | ExprKind::Unary(_, x) => f(x),
            ExprKind::TableCell { row, .. } => f(row),
            ExprKind::Call(_, args) | ExprKind::Builtin(_, args) | ExprKind::List(args) => {
                args.iter().any(f)
            }
            ExprKind::Binary(_, a, b) => f(a) || f(b),
            ExprKind::If(c, a, b) => f(c) || f(a) || f(b),
            ExprKind::Query {
                source,
                filter,
                map,
                keys,
                ..
            } => {
                f(source)
                    || filter.as_deref().is_some_and(&mut f)
                    || map.as_deref().is_some_and(&mut f)
                    || keys.iter().any(f)
            }
            ExprKind::ByPlayers(entries) => entries.iter().any(|(_, _, x)| f(x)),
        }
    }

    /// Calls `f` on each direct child, to change it (the children [`Expr::any_child`] visits).
    pub fn children_mut(&mut self, mut f: impl FnMut(&mut Expr)) {
        match &mut self.kind {
            ExprKind::Const(_)
            | ExprKind::Local(_)
            | ExprKind::Global(_)
            | ExprKind::EnumValues(_)
            | ExprKind::Instances(_)
            | ExprKind::Players
            | ExprKind::AllPlayers
            | ExprKind::PlayerCount => {}
            ExprKind::PlayerVar(x, _) | ExprKind::Field(x, _, _) | ExprKind::Unary(_, x) => f(x),
            ExprKind::TableCell { row, .. } => f(row),
            ExprKind::Call(_, args) | ExprKind::Builtin(_, args) | ExprKind::List(args) => {
                args.iter_mut().for_each(f)
            }
            ExprKind::Binary(_, a, b) => {
                f(a);
                f(b);
            }
            ExprKind::If(c, a, b) => {
                f(c);
                f(a);
                f(b);
            }
            ExprKind::Query {
                source,
                filter,
                map,
                keys,
                ..
            } => {
                f(source);
                if let Some(x) = filter {
                    f(x);
                }
                if let Some(x) = map {
                    f(x);
                }
                keys.iter_mut().for_each(f);
            }
            ExprKind::ByPlayers(entries) => entries.iter_mut().for_each(|(_, _, x)| f(x)),
        }
    }
}

/// The names of the queries that read like calls: `any(x in xs where ...)`, `all`, `top`,
/// `bottom`, `sorted`.
pub const QUERY_NAMES: [&str; QueryKind::CALLED.len()] = {
    let mut names = [""; QueryKind::CALLED.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = QueryKind::CALLED[i].name();
        i += 1;
    }
    names
};

/// Queries that bind a variable over a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryKind {
    /// The list itself (filtered, mapped).
    List,
    /// True if any element passes the filter.
    Any,
    /// True if every element passes the filter.
    All,
    /// Elements with the greatest keys.
    Top,
    /// Elements with the least keys.
    Bottom,
    /// Every element, ordered by its keys (least first; ties keep their order).
    Sorted,
}

impl QueryKind {
    /// The queries that read like calls, in the order the checker lists them.
    pub const CALLED: [QueryKind; 5] = [
        QueryKind::Any,
        QueryKind::All,
        QueryKind::Top,
        QueryKind::Bottom,
        QueryKind::Sorted,
    ];

    /// The name that calls it (a plain list is written with brackets: `[x in xs]`).
    pub const fn name(self) -> &'static str {
        match self {
            QueryKind::List => "[x in xs]",
            QueryKind::Any => "any",
            QueryKind::All => "all",
            QueryKind::Top => "top",
            QueryKind::Bottom => "bottom",
            QueryKind::Sorted => "sorted",
        }
    }

    /// The query called `name`, if one is.
    pub fn by_name(name: &str) -> Option<QueryKind> {
        QueryKind::CALLED.into_iter().find(|q| q.name() == name)
    }
}

/// Resolved expressions.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// A constant.
    Const(Value),
    /// A local slot.
    Local(Slot),
    /// A global variable.
    Global(GlobalId),
    /// A per-player variable.
    PlayerVar(Box<Expr>, PlayerVarId),
    /// A field of an instance.
    Field(Box<Expr>, KindId, FieldId),
    /// Every value of an enum, in order.
    EnumValues(EnumId),
    /// Every instance of a kind, in order.
    Instances(KindId),
    /// Every player still in the game, in seat order.
    Players,
    /// Every player in seat order, those out of the game too.
    AllPlayers,
    /// The number of players.
    PlayerCount,
    /// A call of a pure function.
    Call(DefId, Vec<Expr>),
    /// A built-in function.
    Builtin(Builtin, Vec<Expr>),
    /// A binary operation.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// A unary operation.
    Unary(UnOp, Box<Expr>),
    /// A conditional.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A list literal.
    List(Vec<Expr>),
    /// A query binding `slot` over `source`.
    Query {
        /// What the query computes.
        kind: QueryKind,
        /// The bound variable.
        slot: Slot,
        /// The list.
        source: Box<Expr>,
        /// Which elements.
        filter: Option<Box<Expr>>,
        /// What to make of each.
        map: Option<Box<Expr>>,
        /// Keys for top and bottom.
        keys: Vec<Expr>,
    },
    /// The value in column `column` of row `row` (counting from 1) of a table.
    TableCell {
        /// The table.
        table: TableId,
        /// The column.
        column: u32,
        /// Which row, counting from 1.
        row: Box<Expr>,
    },
    /// A value chosen by the number of players: (low, high, value).
    ByPlayers(Vec<(i64, i64, Expr)>),
}

#[cfg(test)]
mod tests {
    use super::{EnumId, KindId, List, Value};

    #[test]
    fn packed_values_keep_their_parts_their_order_and_how_they_print() {
        for (e, i) in [(0, 0), (3, 7), (u32::MAX, u16::MAX)] {
            let Value::Enum(x) = Value::enum_value(EnumId(e), i) else {
                panic!("an enum value")
            };
            assert_eq!((x.enum_id(), x.index()), (EnumId(e), i));
        }
        for (k, i) in [(0, 0), (5, 70_000), (u32::MAX, u32::MAX)] {
            let Value::Entity(x) = Value::entity(KindId(k), i) else {
                panic!("an instance")
            };
            assert_eq!((x.kind(), x.index()), (KindId(k), i));
        }
        // Values sort (and so `sort`, `distinct` and rankings order them) by enum or kind,
        // then index, as the pairs they pack do.
        let pairs = [(0u32, 2u16), (1, 0), (1, 1), (2, 0)];
        for a in pairs {
            for b in pairs {
                let (x, y) = (
                    Value::enum_value(EnumId(a.0), a.1),
                    Value::enum_value(EnumId(b.0), b.1),
                );
                assert_eq!(x.cmp(&y), a.cmp(&b), "{a:?} against {b:?}");
                let (x, y) = (
                    Value::entity(KindId(a.0), a.1.into()),
                    Value::entity(KindId(b.0), b.1.into()),
                );
                assert_eq!(x.cmp(&y), a.cmp(&b), "{a:?} against {b:?}");
            }
        }
        assert!(Value::bool(false) < Value::bool(true));
        assert!(Value::player(1) < Value::player(2));
        assert_eq!(
            format!(
                "{:?}",
                [
                    Value::bool(true),
                    Value::player(3),
                    Value::enum_value(EnumId(2), 1)
                ]
            ),
            "[Bool(true), Player(3), Enum(EnumId(2), 1)]"
        );
        assert_eq!(
            format!("{:?}", Value::entity(KindId(4), 9)),
            "Entity(KindId(4), 9)"
        );
    }

    #[test]
    fn a_value_put_in_place_drops_the_one_it_replaces() {
        let kept: List = (1..=3).map(Value::Int).collect();
        let mut slot = Value::List(kept.clone());
        assert!(kept.is_shared());
        slot.put(Value::player(2));
        assert!(!kept.is_shared(), "the slot's handle was dropped");
        assert_eq!(slot, Value::player(2));
    }
}
