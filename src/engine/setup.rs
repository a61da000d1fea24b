//! Setting up a position by hand, for tests and scenarios: write a value by its printed name,
//! and end the game where it stands.

use super::{Game, Outcome, RuntimeError};
use crate::ir::{Type, Value};

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
        use crate::ir::Place;
        let program = self.program.clone();
        let wrong = |span| {
            RuntimeError::new(
                "no-value",
                "this is not a player or an instance",
                span,
                "check the place written",
            )
        };
        let players = self.state.players;
        let (target, bounds) = match place {
            Place::Local(s) => (&mut locals[*s as usize], None),
            Place::Global(g) => (
                &mut self.state.globals[g.index()],
                program.globals[g.index()].bounds_for(players),
            ),
            Place::PlayerVar(p, id) => {
                let Value::Player(p) = self.eval_in(p, locals)? else {
                    return Err(wrong(p.span));
                };
                (
                    self.state.player_vars.get_mut(p.get() as usize, id.index()),
                    program.player_vars[id.index()].bounds_for(players),
                )
            }
            Place::Field(x, k, f) => {
                let Value::Entity(it) = self.eval_in(x, locals)? else {
                    return Err(wrong(x.span));
                };
                let i = it.index();
                (
                    self.state.entities[k.index()].get_mut(i as usize, f.index()),
                    program.kinds[k.index()].fields[f.index()].bounds_for(players),
                )
            }
        };
        *target = super::statements::clamp(value, bounds);
        self.state.touch();
        // A turn's legal moves depend on the state: list them again.
        let refreshed = self.refresh_pending().map_err(|e| *e);
        self.set_by_hand();
        refreshed
    }
}
