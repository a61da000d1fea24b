//! The values of a game in progress: global variables, per-player variables and the fields of
//! every instance.

use crate::ir::{List, Value};
use std::sync::Arc;

/// Every variable's value, by index.
#[derive(Debug, PartialEq, Eq)]
pub struct State {
    /// Number of players.
    pub players: u8,
    /// Global variables, by `GlobalId`.
    pub globals: Vec<Value>,
    /// Per-player variables: a row a seat, a column a `PlayerVarId`.
    pub player_vars: Table,
    /// Instances, by `KindId`: a row an instance, a column a `FieldId`.
    pub entities: Vec<Table>,
    /// Names of instances from `shown as`, rendered at the start: `[KindId][instance]`.
    pub labels: Arc<Vec<Vec<String>>>,
    /// The lists that never change during a game, built once at its start.
    pub domains: Arc<Domains>,
    /// The seats out of the game (`eliminate`), in the order they went out, each with the
    /// number of decisions taken before it.
    pub out: Vec<(u8, u32)>,
    /// The players still in the game, in seat order, once a seat is out; `None` while every
    /// seat is in (then they are `domains.seats`).
    pub in_play: Option<List>,
    /// The instances shown to everyone wherever they lie (`reveal`): one bit an instance, the
    /// kinds' instances one after another, sized when the game starts so that a reveal in a
    /// playout allocates nothing.
    pub revealed: Vec<u64>,
    /// The work left before the rules must reach a decision (not part of the position).
    pub work: WorkMeter,
    /// Which values it holds, for remembered calls (not part of the position): every write
    /// must call [`State::touch`] or [`State::touch_variable`].
    pub epoch: super::memo::Epoch,
    /// When each variable was last written, for remembered calls (not part of the position).
    pub written: super::memo::Written,
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            players: self.players,
            globals: self.globals.clone(),
            player_vars: self.player_vars.clone(),
            entities: self.entities.clone(),
            labels: self.labels.clone(),
            domains: self.domains.clone(),
            out: self.out.clone(),
            in_play: self.in_play.clone(),
            revealed: self.revealed.clone(),
            work: self.work.clone(),
            epoch: self.epoch,
            written: self.written.clone(),
        }
    }

    /// Copies a state into this one, reusing its buffers: a search copies a position into the
    /// same scratch state a thousand times a decision, and the nested vectors of instances
    /// would otherwise be allocated and freed each time.
    fn clone_from(&mut self, source: &State) {
        self.players = source.players;
        self.globals.clone_from(&source.globals);
        self.player_vars.clone_from(&source.player_vars);
        self.entities.clone_from(&source.entities);
        self.labels.clone_from(&source.labels);
        self.domains.clone_from(&source.domains);
        self.out.clone_from(&source.out);
        self.in_play.clone_from(&source.in_play);
        self.revealed.clone_from(&source.revealed);
        self.work.clone_from(&source.work);
        self.epoch = source.epoch;
        self.written.copy_from(&source.written);
    }
}

impl State {
    /// The players still in the game, in seat order: what `players` reads.
    #[inline]
    pub fn players_in(&self) -> &List {
        self.in_play.as_ref().unwrap_or(&self.domains.seats)
    }

    /// Whether `seat` is out of the game.
    #[inline]
    pub fn is_out(&self, seat: u8) -> bool {
        !self.out.is_empty() && self.out.iter().any(|(s, _)| *s == seat)
    }

    /// Takes `seat` out of the game after `decisions` decisions; false if it was out already.
    /// Every remembered result is outdated, since `players`, `next` and the others change.
    pub fn eliminate(&mut self, seat: u8, decisions: u32) -> bool {
        if self.is_out(seat) || seat >= self.players {
            return false;
        }
        self.out.push((seat, decisions));
        let left: List = self
            .domains
            .seats
            .iter()
            .filter(|p| !matches!(p, Value::Player(s) if self.is_out(s.get())))
            .cloned()
            .collect();
        self.in_play = Some(left);
        self.touch();
        true
    }

    /// The bit of instance `i` of kind `k` in [`State::revealed`].
    fn reveal_bit(&self, k: usize, i: u32) -> usize {
        let before: usize = self.entities[..k].iter().map(Table::len).sum();
        before + i as usize
    }

    /// Room for a bit for every instance, none set: at the start of a game.
    pub fn clear_revealed(&mut self) {
        let n: usize = self.entities.iter().map(Table::len).sum();
        self.revealed.clear();
        self.revealed.resize(n.div_ceil(64), 0);
    }

    /// Shows instance `i` of kind `k` to everyone wherever it lies (`shown`), or no longer.
    /// What a seat sees changes, so what was worked out from it (a redeal's plan) is outdated.
    pub fn reveal(&mut self, k: usize, i: u32, shown: bool) {
        let bit = self.reveal_bit(k, i);
        let Some(word) = self.revealed.get_mut(bit / 64) else {
            return;
        };
        let mask = 1u64 << (bit % 64);
        if shown {
            *word |= mask;
        } else {
            *word &= !mask;
        }
        self.touch();
    }

    /// Whether instance `i` of kind `k` is revealed.
    #[inline]
    pub fn is_revealed(&self, k: usize, i: u32) -> bool {
        if !self.any_revealed() {
            return false;
        }
        let bit = self.reveal_bit(k, i);
        self.revealed
            .get(bit / 64)
            .is_some_and(|w| w >> (bit % 64) & 1 == 1)
    }

    /// Whether any instance is revealed now: most games reveal none, and their views look no
    /// further.
    #[inline]
    pub fn any_revealed(&self) -> bool {
        self.revealed.iter().any(|w| *w != 0)
    }

    /// Whether `v` is an instance revealed now.
    #[inline]
    pub fn value_revealed(&self, v: &Value) -> bool {
        matches!(v, Value::Entity(x) if self.is_revealed(x.kind().index(), x.index()))
    }

    /// Marks the whole state as written: no result remembered for its old values applies.
    #[inline]
    pub fn touch(&mut self) {
        self.epoch = super::memo::Epoch::after(self.epoch);
        self.written.everything(self.epoch);
    }

    /// Marks one variable (`ir::memo::Variables`) as written: results remembered for its old
    /// value no longer apply; results that did not read it still do.
    #[inline]
    pub fn touch_variable(&mut self, v: usize) {
        self.epoch = super::memo::Epoch::after(self.epoch);
        self.written.variable(v, self.epoch);
    }

    /// Notes one write to each of `variables` (a redeal's): as many writes one after another,
    /// with nothing read between them.
    pub fn touch_variables(&mut self, variables: &[usize]) {
        self.epoch = super::memo::Epoch::after(self.epoch);
        for &v in variables {
            self.written.variable(v, self.epoch);
        }
    }
}

/// Rows of values, each as long as the next, in one buffer: the instances of a kind (a row an
/// instance, a column a field) or the seats (a row a seat, a column a per-player variable). A
/// value is one index away from its table, and a copy of a position copies one buffer a table
/// rather than one vector a row.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Table {
    rows: usize,
    columns: usize,
    cells: Vec<Value>,
}

impl Table {
    /// `rows` rows of `columns` values each, every value `none`.
    pub fn new(rows: usize, columns: usize) -> Table {
        Table {
            rows,
            columns,
            cells: vec![Value::None; rows * columns],
        }
    }

    /// How many rows.
    #[inline]
    pub fn len(&self) -> usize {
        self.rows
    }

    /// True if there are no rows.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// How many columns.
    #[inline]
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// The value in `row` and `column`.
    #[inline]
    pub fn get(&self, row: usize, column: usize) -> &Value {
        &self.cells[self.at(row, column)]
    }

    /// The value in `row` and `column`, to write.
    #[inline]
    pub fn get_mut(&mut self, row: usize, column: usize) -> &mut Value {
        let at = self.at(row, column);
        &mut self.cells[at]
    }

    /// The values of `row`, in order.
    pub fn row(&self, row: usize) -> &[Value] {
        &self.cells[row * self.columns..(row + 1) * self.columns]
    }

    /// Every value of every row, to write.
    pub fn values_mut(&mut self) -> &mut [Value] {
        &mut self.cells
    }

    /// Every row, in order.
    pub fn iter(&self) -> impl Iterator<Item = &[Value]> {
        (0..self.rows).map(|i| self.row(i))
    }

    /// Where a value is kept. A row out of range is past the buffer and stops at its bounds
    /// check; a column is always the table's own (the checker resolved the field or variable).
    #[inline]
    fn at(&self, row: usize, column: usize) -> usize {
        debug_assert!(column < self.columns, "column {column} of {}", self.columns);
        row * self.columns + column
    }
}

impl Clone for Table {
    fn clone(&self) -> Table {
        Table {
            rows: self.rows,
            columns: self.columns,
            cells: self.cells.clone(),
        }
    }

    /// Reuses the buffer: the derived `clone_from` would allocate a new one.
    fn clone_from(&mut self, source: &Table) {
        self.rows = source.rows;
        self.columns = source.columns;
        self.cells.clone_from(&source.cells);
    }
}

/// The operation budget: every statement, loop pass and call spends from it, and every list
/// element a loop or query looks at, builds or scans (an expression's nodes cost nothing of
/// their own), so that no rule runs on unseen. Running the rules to the next decision *arms* it with the whole budget
/// for that run; any other evaluation (listing moves, a view, a prompt) starts from a full budget
/// of its own. It is not part of the position: two states that differ only in it are equal.
#[derive(Debug, Clone, Default)]
pub struct WorkMeter {
    left: std::cell::Cell<u64>,
    budget: u64,
    armed: std::cell::Cell<bool>,
    /// List elements built since the game's size was last measured: with `held`, a bound on
    /// what it holds now, so that it is measured only when the bound passes the limit.
    built: std::cell::Cell<u64>,
    /// List elements the game held when last measured.
    held: std::cell::Cell<u64>,
}

impl WorkMeter {
    /// A meter of `budget` units an evaluation.
    pub fn new(budget: u64) -> WorkMeter {
        WorkMeter {
            left: std::cell::Cell::new(budget),
            budget,
            armed: std::cell::Cell::new(false),
            built: std::cell::Cell::new(0),
            held: std::cell::Cell::new(0),
        }
    }

    /// The whole budget.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// Starts a run of the rules: one budget for all of it, until [`WorkMeter::disarm`].
    pub fn arm(&self) {
        self.left.set(self.budget);
        self.armed.set(true);
    }

    /// Ends a run of the rules.
    pub fn disarm(&self) {
        self.armed.set(false);
    }

    /// Starts an evaluation: a full budget, unless it is part of an armed run.
    #[inline]
    pub fn fresh(&self) {
        if !self.armed.get() {
            self.left.set(self.budget);
        }
    }

    /// True while a run of the rules holds one budget for all of it ([`WorkMeter::arm`]).
    #[inline]
    pub fn armed(&self) -> bool {
        self.armed.get()
    }

    /// The work left.
    #[inline]
    pub fn left(&self) -> u64 {
        self.left.get()
    }

    /// Sets the work left (an evaluation hands back what it did not spend).
    #[inline]
    pub fn set_left(&self, left: u64) {
        self.left.set(left);
    }

    /// Notes `n` list elements built (their work is spent apart).
    #[inline(always)]
    pub fn note_built(&self, n: u64) {
        self.built.set(self.built.get().saturating_add(n));
    }

    /// At most how many list elements the game holds: what it held when last measured and
    /// what has been built since.
    #[inline(always)]
    pub fn live_bound(&self) -> u64 {
        self.held.get().saturating_add(self.built.get())
    }

    /// Notes that the game, measured, holds `n` list elements.
    pub fn measured(&self, n: u64) {
        self.held.set(n);
        self.built.set(0);
    }

    /// Spends `n` units; false if the budget is spent.
    #[inline]
    pub fn spend(&self, n: u64) -> bool {
        let left = self.left.get();
        if left < n {
            self.left.set(0);
            return false;
        }
        self.left.set(left - n);
        true
    }
}

impl PartialEq for WorkMeter {
    fn eq(&self, _: &WorkMeter) -> bool {
        true
    }
}

impl Eq for WorkMeter {}

/// Every seat, every instance of each kind and every value of each enum, as lists, so that
/// reading `players`, a kind or an enum as a list builds nothing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Domains {
    /// Every seat in order.
    pub seats: List,
    /// Every instance of each kind, by `KindId`.
    pub instances: Vec<List>,
    /// Every value of each enum, by `EnumId`.
    pub enum_values: Vec<List>,
    /// Every set a set parameter may take (`exactly 3 of gem`), by action then parameter.
    pub sets: Vec<Vec<Vec<Value>>>,
    /// The program's roots compiled (none: every expression is compiled when evaluated).
    pub(crate) code: Arc<super::compile::Code>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(rows: usize, columns: usize) -> Table {
        let mut t = Table::new(rows, columns);
        for r in 0..rows {
            for c in 0..columns {
                *t.get_mut(r, c) = Value::Int((10 * r + c) as i64);
            }
        }
        t
    }

    #[test]
    fn each_value_has_a_cell_of_its_own_and_rows_read_in_order() {
        let t = numbered(3, 2);
        assert_eq!(t.get(2, 1), &Value::Int(21));
        assert_eq!(t.row(1), &[Value::Int(10), Value::Int(11)]);
        let rows: Vec<&[Value]> = t.iter().collect();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[2], &[Value::Int(20), Value::Int(21)]);
    }

    #[test]
    fn a_table_without_columns_still_has_its_rows() {
        // A kind with no fields still has its instances: they are counted, not derived from the
        // number of values.
        let t = Table::new(4, 0);
        assert_eq!(t.len(), 4);
        assert_eq!(t.iter().count(), 4);
    }

    #[test]
    fn a_copy_into_a_table_reuses_its_buffer() {
        let source = numbered(3, 2);
        let mut scratch = numbered(3, 2);
        *scratch.get_mut(0, 0) = Value::bool(true);
        let buffer = scratch.cells.as_ptr();
        scratch.clone_from(&source);
        assert_eq!(scratch, source);
        assert_eq!(scratch.cells.as_ptr(), buffer);
    }
}
