//! Setting up a position by hand, for tests and scenarios: write a value by its printed name,
//! and end the game where it stands.

use super::{Game, Outcome, RuntimeError};
use crate::ir::{self, FieldId, GlobalId, Instance, KindId, PlayerVarId, Type, Value};

impl Game {
    /// Sets a variable by name: `round`, `P2.coins` or `crate-1.weight`; the value is written
    /// as views print it (`3`, `yes`, `none`, `P2`, `red`, `crate-1`, `[P1, P3]`).
    pub fn set_value(&mut self, place: &str, value: &str) -> Result<(), String> {
        let program = self.program.clone();
        let (owner, name) = match place.split_once('.') {
            Some((o, n)) => (Some(o.trim()), n.trim()),
            None => (None, place.trim()),
        };
        match owner {
            None => {
                let i = program
                    .globals
                    .iter()
                    .position(|g| g.name == name)
                    .ok_or_else(|| format!("no variable `{name}`"))?;
                let v = self.parse_value(&program.globals[i].ty, value)?;
                self.state.globals[i] = v;
                self.state.touch();
            }
            Some(o) => {
                if let Some(p) = self.seat_by_name(o) {
                    let i = program
                        .player_vars
                        .iter()
                        .position(|v| v.name == name)
                        .ok_or_else(|| format!("players have no variable `{name}`"))?;
                    let v = self.parse_value(&program.player_vars[i].ty, value)?;
                    *self.state.player_vars.get_mut(p as usize, i) = v;
                    self.state.touch();
                } else {
                    let Value::Entity(x) = self.parse_value(&Type::Error, o)? else {
                        return Err(format!("`{o}` is neither a seat nor an instance"));
                    };
                    let (k, n) = (x.kind(), x.index());
                    let kind = &program.kinds[k.index()];
                    let f = kind
                        .fields
                        .iter()
                        .position(|f| f.name == name)
                        .ok_or_else(|| format!("`{}` has no field `{name}`", kind.name))?;
                    let v = self.parse_value(&kind.fields[f].ty, value)?;
                    *self.state.entities[k.index()].get_mut(n as usize, f) = v;
                    self.state.touch();
                }
            }
        }
        let refreshed = self.refresh_pending().map_err(|e| e.to_string());
        self.set_by_hand();
        refreshed
    }

    /// Parses a value as views print it; `ty` disambiguates lists and enum values.
    pub fn parse_value(&self, ty: &Type, text: &str) -> Result<Value, String> {
        let t = text.trim();
        let program = &self.program;
        if let Some(inner) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            let elem = ty.element().unwrap_or(Type::Error);
            if inner.trim().is_empty() {
                return Ok(Value::List(crate::ir::List::new()));
            }
            return inner
                .split(',')
                .map(|x| self.parse_value(&elem, x))
                .collect::<Result<Vec<_>, _>>()
                .map(|xs| Value::List(xs.into()));
        }
        if let Ok(n) = t.parse::<i64>() {
            return Ok(Value::Int(n));
        }
        match t {
            "none" => return Ok(Value::None),
            "yes" | "true" => return Ok(Value::bool(true)),
            "no" | "false" => return Ok(Value::bool(false)),
            _ => {}
        }
        if let Some(p) = self.seat_by_name(t) {
            return Ok(Value::player(p));
        }
        for (e, def) in program.enums.iter().enumerate() {
            if matches!(ty, Type::Enum(x) if x.index() != e) {
                continue;
            }
            let found = def.values.iter().position(|v| v == t);
            if let Some(i) = found.or_else(|| def.shown.iter().position(|v| v == t)) {
                return Ok(Value::enum_value(crate::ir::EnumId(e as u32), i as u16));
            }
        }
        for (k, kind) in program.kinds.iter().enumerate() {
            // An instance by its declared name, or by its `shown as` name, as views print it.
            let shown = self
                .state
                .labels
                .get(k)
                .and_then(|l| l.iter().position(|n| n == t));
            if let Some(i) = kind.names.iter().position(|n| n == t).or(shown) {
                return Ok(Value::entity(crate::ir::KindId(k as u32), i as u32));
            }
        }
        if let Some((kind, n)) = t.rsplit_once('-') {
            if let (Some(k), Ok(n)) = (
                program.kinds.iter().position(|k| k.name == kind),
                n.parse::<u32>(),
            ) {
                if n >= 1 && (n as usize) <= self.state.entities[k].len() {
                    return Ok(Value::entity(crate::ir::KindId(k as u32), n - 1));
                }
            }
        }
        Err(format!("cannot read `{t}` as a value"))
    }

    /// Ends the game where it stands: scores everyone and picks the winners.
    pub fn end_now(&mut self) -> Result<&Outcome, RuntimeError> {
        if self.outcome.is_none() {
            self.finish(None)?;
        }
        Ok(self.outcome.as_ref().expect("finished"))
    }
}

impl Game {
    /// Evaluates a resolved expression against the current state, in a frame of `locals`.
    pub fn eval_in(
        &self,
        e: &crate::ir::Expr,
        locals: &mut [Value],
    ) -> Result<Value, RuntimeError> {
        Ok(super::eval::Eval::new(&self.program, &self.state).expr(e, locals)?)
    }

    /// Writes a value to a resolved place, clamping bounded ints, as an assignment would.
    pub fn set_place(
        &mut self,
        place: &crate::ir::Place,
        value: Value,
        locals: &mut [Value],
    ) -> Result<(), RuntimeError> {
        let players = self.state.players;
        match self.holder(place, locals)? {
            Some(holder) => {
                let bounds = self.declared(holder).bounds_for(players);
                *self.held_mut(holder) = super::statements::clamp(value, bounds);
            }
            None => {
                let ir::Place::Local(s) = place else {
                    unreachable!("only a local has no holder")
                };
                locals[*s as usize] = super::statements::clamp(value, None);
            }
        }
        self.state.touch();
        // A turn's legal moves depend on the state: list them again.
        let refreshed = self.refresh_pending().map_err(|e| *e);
        self.set_by_hand();
        refreshed
    }
}

/// A list of the position, as a scenario's `move` finds and names it: a variable, a seat's
/// variable or an instance's field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    /// A global variable.
    Global(GlobalId),
    /// A per-player variable of a seat.
    PlayerVar(u8, PlayerVarId),
    /// A field of an instance.
    Field(Instance, FieldId),
}

impl Game {
    /// Every list of the position that holds `item`, variables first, then the seats' variables
    /// seat by seat, then the instances' fields. Lists inside lists are not searched: a `move`
    /// names the list it takes from and puts into, and only those can be named.
    pub fn holders_of(&self, item: &Value) -> Vec<Holder> {
        let program = &self.program;
        let state = &self.state;
        let holds = |ty: &Type, v: &Value| {
            matches!(ty, Type::List(_)) && matches!(v, Value::List(xs) if xs.contains(item))
        };
        let mut out = Vec::new();
        for (g, def) in program.globals.iter().enumerate() {
            if holds(&def.ty, &state.globals[g]) {
                out.push(Holder::Global(GlobalId(g as u32)));
            }
        }
        for seat in 0..state.players {
            for (v, def) in program.player_vars.iter().enumerate() {
                if holds(&def.ty, state.player_vars.get(seat as usize, v)) {
                    out.push(Holder::PlayerVar(seat, PlayerVarId(v as u32)));
                }
            }
        }
        for (k, kind) in program.kinds.iter().enumerate() {
            for i in 0..state.entities[k].len() {
                for (f, def) in kind.fields.iter().enumerate() {
                    if holds(&def.ty, state.entities[k].get(i, f)) {
                        let it = Instance::new(KindId(k as u32), i as u32);
                        out.push(Holder::Field(it, FieldId(f as u32)));
                    }
                }
            }
        }
        out
    }

    /// The list a resolved place names, or `None` for a scenario's own name (a local).
    pub fn holder(
        &self,
        place: &ir::Place,
        locals: &mut [Value],
    ) -> Result<Option<Holder>, RuntimeError> {
        let wrong = |span| {
            RuntimeError::new(
                "no-value",
                "this is not a player or an instance",
                span,
                "check the place written",
            )
        };
        Ok(match place {
            ir::Place::Local(_) => None,
            ir::Place::Global(g) => Some(Holder::Global(*g)),
            ir::Place::PlayerVar(p, id) => match self.eval_in(p, locals)? {
                Value::Player(seat) => Some(Holder::PlayerVar(seat.get(), *id)),
                _ => return Err(wrong(p.span)),
            },
            ir::Place::Field(x, _, f) => match self.eval_in(x, locals)? {
                Value::Entity(it) => Some(Holder::Field(it, *f)),
                _ => return Err(wrong(x.span)),
            },
        })
    }

    /// A list's name as a scenario writes it: `deck`, `P2.hand`, `north_tower.floors`.
    pub fn holder_name(&self, holder: Holder) -> String {
        let program = &self.program;
        match holder {
            Holder::Global(g) => program.globals[g.index()].name.clone(),
            Holder::PlayerVar(seat, v) => format!(
                "{}.{}",
                self.seat_name(seat),
                program.player_vars[v.index()].name
            ),
            Holder::Field(it, f) => format!(
                "{}.{}",
                super::show(program, &self.state, &Value::Entity(it)),
                program.kinds[it.kind().index()].fields[f.index()].name
            ),
        }
    }

    /// The value a list holds now.
    pub fn held(&self, holder: Holder) -> &Value {
        match holder {
            Holder::Global(g) => &self.state.globals[g.index()],
            Holder::PlayerVar(seat, v) => self.state.player_vars.get(seat as usize, v.index()),
            Holder::Field(it, f) => {
                self.state.entities[it.kind().index()].get(it.index() as usize, f.index())
            }
        }
    }

    /// Takes the first `item` out of `from` and puts it into `to`, at 0-based position `at` of
    /// the list as it is once the item has left (at the end if `None`), without running any
    /// rule, as a scenario's `set` does. If `from` does not hold the item or `at` is past the
    /// end, nothing changes and the error points at `span`.
    pub fn move_item(
        &mut self,
        item: &Value,
        (from, to): (Holder, Holder),
        at: Option<usize>,
        span: crate::diag::Span,
    ) -> Result<(), RuntimeError> {
        let list = |v: &Value| match v {
            Value::List(xs) => xs.to_vec(),
            _ => Vec::new(),
        };
        let mut source = list(self.held(from));
        let Some(i) = source.iter().position(|x| x == item) else {
            let message = format!("`{}` does not hold this", self.holder_name(from));
            return Err(RuntimeError::new(
                "not-in-list",
                message,
                span,
                "test `x in xs` first",
            ));
        };
        source.remove(i);
        let mut target = if from == to {
            std::mem::take(&mut source)
        } else {
            list(self.held(to))
        };
        let at = at.unwrap_or(target.len());
        if at > target.len() {
            let message = format!("`{}` has {} elements", self.holder_name(to), target.len());
            return Err(RuntimeError::new(
                "out-of-range",
                message,
                span,
                "put it at a position the list has",
            ));
        }
        target.insert(at, item.clone());
        if from != to {
            *self.held_mut(from) = Value::List(source.into());
        }
        *self.held_mut(to) = Value::List(target.into());
        self.state.touch();
        let refreshed = self.refresh_pending().map_err(|e| *e);
        self.set_by_hand();
        refreshed
    }

    /// The declaration of what `holder` holds: its variable or field.
    fn declared(&self, holder: Holder) -> &ir::VarDef {
        match holder {
            Holder::Global(g) => &self.program.globals[g.index()],
            Holder::PlayerVar(_, v) => &self.program.player_vars[v.index()],
            Holder::Field(it, f) => &self.program.kinds[it.kind().index()].fields[f.index()],
        }
    }

    fn held_mut(&mut self, holder: Holder) -> &mut Value {
        match holder {
            Holder::Global(g) => &mut self.state.globals[g.index()],
            Holder::PlayerVar(seat, v) => self.state.player_vars.get_mut(seat as usize, v.index()),
            Holder::Field(it, f) => {
                self.state.entities[it.kind().index()].get_mut(it.index() as usize, f.index())
            }
        }
    }
}
