//! Listing a turn's legal moves, explaining a refused one, and the labels players type.
//!
//! Moves are found parameter by parameter, each requirement checked as soon as the values it
//! reads are given, and a parameter narrowed to the elements of the list a requirement names
//! where the action's plan allows (`ir::MovePlan`).

use super::eval::Eval;
use super::exec::{err, MAX_PARAMS, R};
use super::spare;
use super::{normalize, show, At, Game, Pending, State, Turn};
use crate::ir::{self, StmtKind as S, Value};

/// The bounds of an `int in lo..hi` parameter as they stand (`None` for other types).
type Bounds = Option<(i64, i64)>;

/// The most combinations of parameter values a turn tries, over all its actions: far more moves
/// than anyone chooses from, and little enough memory.
pub const MAX_MOVES: usize = 100_000;

impl Game {
    /// Every legal (action, arguments) for `player` among `actions`, in the order of the
    /// actions and, within one, of their parameters' values (the last parameter fastest).
    pub(super) fn legal_moves(
        &mut self,
        program: &ir::Program,
        player: u8,
        actions: &[ir::ActionId],
        at: At,
    ) -> R<Turn> {
        let mut turn = Turn {
            player,
            moves: std::mem::take(&mut self.kept.moves),
            args: std::mem::take(&mut self.kept.args),
            at,
        };
        let mut locals = std::mem::take(&mut self.kept.locals);
        let result = self.collect_moves(program, player, actions, &mut turn, &mut locals);
        super::spare::clear_values(&mut locals);
        self.kept.locals = locals;
        match result {
            Ok(()) => Ok(turn),
            Err(e) => {
                self.recycle(turn);
                Err(e)
            }
        }
    }

    /// The moves of `actions`; those marked `only when no other` only if the others have none.
    fn collect_moves(
        &self,
        program: &ir::Program,
        player: u8,
        actions: &[ir::ActionId],
        turn: &mut Turn,
        locals: &mut Vec<Value>,
    ) -> R<()> {
        let mut tried = 0usize;
        let before = turn.moves.len();
        self.collect_actions(program, player, (actions, false), turn, locals, &mut tried)?;
        if turn.moves.len() == before
            && actions
                .iter()
                .any(|a| program.actions[a.index()].last_resort.is_some())
        {
            self.collect_actions(program, player, (actions, true), turn, locals, &mut tried)?;
        }
        Ok(())
    }

    /// The moves of those of `actions` that are marked `only when no other` (`last_resorts`)
    /// or those that are not, counting the combinations tried in `tried`.
    fn collect_actions(
        &self,
        program: &ir::Program,
        player: u8,
        (actions, last_resorts): (&[ir::ActionId], bool),
        turn: &mut Turn,
        locals: &mut Vec<Value>,
        tried: &mut usize,
    ) -> R<()> {
        for &a in actions {
            let def = &program.actions[a.index()];
            if def.last_resort.is_some() != last_resorts {
                continue;
            }
            let n = def.params.len();
            if n == 0 && *tried < MAX_MOVES {
                // An action without parameters is one move, if its requirements (every one of
                // them reads no parameter) hold.
                *tried += 1;
                // Without requirements it always is: no frame to set up.
                if def.requires.is_empty() {
                    keep(turn, a, &[]);
                    continue;
                }
                requirement_slots(locals, def.require_locals.max(1), player);
                if self.all_hold(program, &def.requires, locals)? {
                    keep(turn, a, &[]);
                }
                continue;
            }
            // An odometer over the parameters' values: each index counts up to its domain's
            // size, the last fastest.
            // A range written with expressions counts here as the widest the checker proved.
            let mut bounds: [Option<(i64, i64)>; MAX_PARAMS] =
                std::array::from_fn(|i| def.params.get(i).and_then(|p| p.bounds));
            // One bounded only at run time counts as one value until its range is known.
            let mut sizes: [usize; MAX_PARAMS] = std::array::from_fn(|i| {
                def.params.get(i).map_or(1, |p| {
                    if p.bounded_in_play() {
                        1
                    } else {
                        self.param_size(program, a, i, bounds[i])
                    }
                })
            });
            if n > sizes.len() {
                return Err(err(
                    "too-many-parameters",
                    format!("`{}` has more than {} parameters", def.name, sizes.len()),
                    def.span,
                    "choose the rest inside the action with `choose`",
                ));
            }
            if sizes[..n].contains(&0) {
                continue;
            }
            // Every combination of values is tried: too many would take the move list past
            // what any person could choose from, and past memory.
            let combinations = combinations_of(&sizes[..n]);
            *tried = tried.saturating_add(combinations);
            if *tried > MAX_MOVES {
                return Err(move_limit(def, combinations));
            }
            // Requirements that read no parameter decide for every combination at once.
            let shared = def.plan.shared();
            requirement_slots(locals, def.require_locals.max(1 + n), player);
            if !self.all_hold(program, &def.requires[..shared], locals)? {
                continue;
            }
            if self.param_ranges(program, def, locals, &mut bounds)? {
                for (i, size) in sizes[..n].iter_mut().enumerate() {
                    *size = self.param_size(program, a, i, bounds[i]);
                }
                if sizes[..n].contains(&0) {
                    continue;
                }
                // A range bounded only at run time counts now with its values.
                let now = combinations_of(&sizes[..n]);
                if now > combinations {
                    *tried = tried.saturating_add(now - combinations);
                    if *tried > MAX_MOVES {
                        return Err(move_limit(def, now));
                    }
                }
            }
            let mut domains = Domains {
                sizes: &sizes[..n],
                bounds: &bounds[..n],
                steady: [None; MAX_PARAMS],
            };
            self.values_from(program, a, 0, &mut domains, locals, turn)?;
        }
        Ok(())
    }

    /// Gives parameter `d` each of its values (its domain's, or the elements of the list that
    /// narrows it), and for each value under which the requirements checked at that stage hold
    /// (`ir::MovePlan`), the parameters after it; with every parameter given, keeps the move.
    /// The last parameter changes fastest, as an odometer over all the combinations would.
    fn values_from(
        &self,
        program: &ir::Program,
        a: ir::ActionId,
        d: usize,
        domains: &mut Domains<'_>,
        locals: &mut [Value],
        turn: &mut Turn,
    ) -> R<()> {
        let def = &program.actions[a.index()];
        let n = domains.sizes.len();
        if d == n {
            keep(turn, a, &locals[1..1 + n]);
            return Ok(());
        }
        let plan = &def.plan;
        let param = &def.params[d];
        let mut requires = &def.requires[plan.checked[d]..plan.checked[d + 1]];
        // The values to try: all of them, or only the elements of the list of a `p in xs` that
        // comes next (found once for the values before, in the order of the values; once a
        // turn when the list reads no parameter).
        let mut values = Values::All(0..domains.sizes[d]);
        // Requirements that cannot fail, written before the membership: checked for each of
        // its values (`ir::MovePlan::guards`).
        let mut guards: &[ir::Require] = &[];
        if plan.narrows[d] {
            let bounds = domains.bounds[d];
            let g = plan.guards[d];
            values = match domains.steady[d] {
                Some(bits) => Values::Bits(bits),
                None => self.members(program, (param, bounds), &requires[g], locals)?,
            };
            if let (Values::Bits(bits), true) = (&values, plan.steady[d]) {
                domains.steady[d] = Some(*bits);
            }
            guards = &requires[..g];
            requires = &requires[g + 1..];
        }
        let bounds = domains.bounds[d];
        // The values of a seat, enum or instance parameter, found once (see `domain_value`).
        let listed = match param.set {
            Some(_) => Some(self.set_values(a, d)),
            None => self.domain_list(&param.ty),
        };
        let value = |v: usize| match listed.and_then(|xs| xs.get(v)) {
            Some(x) => x.clone(),
            None => self.domain_value(&param.ty, bounds, v),
        };
        // A set of seats is offered only while every seat in it is in the game.
        let seats_out = param.set.is_some()
            && param.ty == ir::Type::List(Box::new(ir::Type::Player))
            && self.state.in_play.is_some();
        let offered = |v: usize| !seats_out || self.seats_in_play(listed, v);
        if d + 1 == n && guards.is_empty() && requires.is_empty() {
            // The last parameter, with nothing left to check: every value is a move.
            while let Some(v) = values.next() {
                if !offered(v) {
                    continue;
                }
                turn.moves.push((a, turn.args.len() as u32));
                turn.args.extend_from_slice(&locals[1..1 + d]);
                turn.args.push(value(v));
            }
            if let Values::Listed(members, _) = values {
                spare::give_indices(members);
            }
            return Ok(());
        }
        let mut result = Ok(());
        while let Some(v) = values.next() {
            if !offered(v) {
                continue;
            }
            locals[1 + d].put(value(v));
            let held = match self.all_hold(program, guards, locals) {
                Ok(true) => self.all_hold(program, requires, locals),
                other => other,
            };
            result = match held {
                // The last parameter keeps its move here rather than in a call of its own.
                Ok(true) if d + 1 == n => {
                    keep(turn, a, &locals[1..1 + n]);
                    Ok(())
                }
                Ok(true) => self.values_from(program, a, d + 1, domains, locals, turn),
                Ok(false) => Ok(()),
                Err(e) => Err(e),
            };
            if result.is_err() {
                break;
            }
        }
        if let Values::Listed(members, _) = values {
            spare::give_indices(members);
        }
        result
    }

    /// The values of `param` (within `bounds`) that are elements of the list of `membership`
    /// (`p in xs`), as indices among the parameter's values, ascending and without repeats: a
    /// set of bits where the domain has at most 64 values (no sorting), else a list.
    fn members(
        &self,
        program: &ir::Program,
        (param, bounds): (&ir::ActionParam, Bounds),
        membership: &ir::Require,
        locals: &mut [Value],
    ) -> R<Values> {
        let ir::ExprKind::Binary(_, _, list) = &membership.cond.kind else {
            return Ok(Values::Bits(0));
        };
        let items = Eval::new(program, &self.state).items(list, locals)?;
        let index = |v| self.domain_index(program, &param.ty, bounds, v);
        if self.domain_size(program, &param.ty, bounds) <= u64::BITS as usize {
            let bits = items
                .iter()
                .filter_map(index)
                .fold(0u64, |bits, i| bits | 1 << i);
            return Ok(Values::Bits(bits));
        }
        let mut out = spare::indices();
        out.extend(items.iter().filter_map(index));
        out.sort_unstable();
        out.dedup();
        Ok(Values::Listed(out, 0))
    }

    /// The ranges of an action's parameters written with expressions, evaluated with `me` in
    /// `locals`, each kept within the widest range the checker proved. A range the checker
    /// could not bound is refused (`range-too-wide`) when it holds more than
    /// [`ir::MAX_PARAM_VALUES`] values now: never cut short without a word. False if the
    /// action has none.
    fn param_ranges(
        &self,
        program: &ir::Program,
        def: &ir::ActionDef,
        locals: &mut [Value],
        bounds: &mut [Option<(i64, i64)>; MAX_PARAMS],
    ) -> R<bool> {
        let mut any = false;
        for (i, p) in def.params.iter().enumerate() {
            let Some(range) = &p.range else {
                continue;
            };
            let lo = Eval::new(program, &self.state).int(&range.0, locals)?;
            let hi = Eval::new(program, &self.state).int(&range.1, locals)?;
            bounds[i] = Some(match p.bounds {
                Some((widest_lo, widest_hi)) => (lo.max(widest_lo), hi.min(widest_hi)),
                None => {
                    let width = i128::from(hi) - i128::from(lo) + 1;
                    if width > i128::from(ir::MAX_PARAM_VALUES) {
                        return Err(too_wide(program, def, p, range, (lo, hi)));
                    }
                    (lo, hi)
                }
            });
            any = true;
        }
        Ok(any)
    }

    /// True if every requirement holds, with `me` and the arguments in `locals`.
    fn all_hold(
        &self,
        program: &ir::Program,
        requires: &[ir::Require],
        locals: &mut [Value],
    ) -> R<bool> {
        for r in requires {
            if !Eval::new(program, &self.state).bool(&r.cond, locals)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Where a value stands among a parameter's values, if it is one of them.
    fn domain_index(
        &self,
        program: &ir::Program,
        ty: &ir::Type,
        bounds: Option<(i64, i64)>,
        v: &Value,
    ) -> Option<usize> {
        let i = match (ty, bounds, v) {
            (ir::Type::Player, _, Value::Player(p)) => match &self.state.in_play {
                None => p.get() as usize,
                Some(left) => left.iter().position(|x| x == v)?,
            },
            (ir::Type::Bool, _, Value::Bool(b)) => usize::from(!b.get()),
            (ir::Type::Enum(e), _, Value::Enum(x)) if *e == x.enum_id() => x.index() as usize,
            (ir::Type::Entity(k), _, Value::Entity(x)) if *k == x.kind() => x.index() as usize,
            (ir::Type::Int, Some((lo, _)), Value::Int(n)) => {
                usize::try_from(n.checked_sub(lo)?).ok()?
            }
            _ => return None,
        };
        (i < self.domain_size(program, ty, bounds)).then_some(i)
    }

    /// How many values parameter `d` of action `a` takes: its sets, for a set of values.
    fn param_size(
        &self,
        program: &ir::Program,
        a: ir::ActionId,
        d: usize,
        bounds: Option<(i64, i64)>,
    ) -> usize {
        let p = &program.actions[a.index()].params[d];
        match p.set {
            Some(_) => self.set_values(a, d).len(),
            None => self.domain_size(program, &p.ty, bounds),
        }
    }

    /// Every set parameter `d` of action `a` may take, built when the game started.
    fn set_values(&self, a: ir::ActionId, d: usize) -> &[Value] {
        self.state
            .domains
            .sets
            .get(a.index())
            .and_then(|params| params.get(d))
            .map_or(&[], |sets| &sets[..])
    }

    /// True if every seat of set `v` of `sets` is still in the game.
    fn seats_in_play(&self, sets: Option<&[Value]>, v: usize) -> bool {
        match sets.and_then(|xs| xs.get(v)) {
            Some(Value::List(seats)) => seats.iter().all(|s| self.state.players_in().contains(s)),
            _ => true,
        }
    }

    /// How many values a parameter of this type takes.
    fn domain_size(
        &self,
        program: &ir::Program,
        ty: &ir::Type,
        bounds: Option<(i64, i64)>,
    ) -> usize {
        match (ty, bounds) {
            (ir::Type::Player, _) => self.state.players_in().len(),
            (ir::Type::Bool, _) => 2,
            (ir::Type::Enum(e), _) => program.enums[e.index()].values.len(),
            (ir::Type::Entity(k), _) => self.state.entities[k.index()].len(),
            (ir::Type::Int, Some((lo, hi))) if hi >= lo => (hi - lo + 1) as usize,
            _ => 0,
        }
    }

    /// The values of a seat, enum or instance parameter, as the game keeps them.
    fn domain_list(&self, ty: &ir::Type) -> Option<&[Value]> {
        let domains = &self.state.domains;
        match ty {
            ir::Type::Player => Some(self.state.players_in()),
            ir::Type::Enum(e) => domains.enum_values.get(e.index()).map(|xs| &xs[..]),
            ir::Type::Entity(k) => domains.instances.get(k.index()).map(|xs| &xs[..]),
            _ => None,
        }
    }

    /// The `i`-th value of a parameter's domain.
    fn domain_value(&self, ty: &ir::Type, bounds: Option<(i64, i64)>, i: usize) -> Value {
        // Seats, enum values and instances are copied whole from the lists the game keeps of
        // them: a value built in place is written in parts and read back whole, which the
        // processor cannot forward (a wait at every move a turn lists).
        if let Some(v) = self.domain_list(ty).and_then(|xs| xs.get(i)) {
            return v.clone();
        }
        match (ty, bounds) {
            (ir::Type::Player, _) => Value::player(i as u8),
            (ir::Type::Bool, _) => Value::bool(i == 0),
            (ir::Type::Enum(e), _) => Value::enum_value(*e, i as u16),
            (ir::Type::Entity(k), _) => Value::entity(*k, i as u32),
            (ir::Type::Int, Some((lo, _))) => Value::Int(lo + i as i64),
            _ => Value::None,
        }
    }

    /// Every combination of parameter values of an action (for explaining a typed move). A
    /// range bounded only at run time gives its values now and every number `typed`, so that
    /// a number outside it is found, and refused by [`Game::out_of_range`] with the range.
    fn domains(
        &self,
        program: &ir::Program,
        a: ir::ActionId,
        player: u8,
        typed: &[String],
    ) -> Vec<Vec<Value>> {
        let def = &program.actions[a.index()];
        let mut now = [None; MAX_PARAMS];
        if def.params.iter().any(ir::ActionParam::bounded_in_play) {
            let mut locals = action_locals(def, player, def.params.len());
            // A range that fails (too wide) offers no value now; `out_of_range` says why.
            let _ = self.param_ranges(program, def, &mut locals, &mut now);
        }
        let mut combos: Vec<Vec<Value>> = vec![Vec::new()];
        for (i, param) in def.params.iter().enumerate() {
            let values: Vec<Value> = if param.bounded_in_play() {
                let mut values: Vec<Value> =
                    now[i].map_or(Vec::new(), |(lo, hi)| (lo..=hi).map(Value::Int).collect());
                for n in typed.iter().filter_map(|w| w.parse::<i64>().ok()) {
                    if !values.contains(&Value::Int(n)) {
                        values.push(Value::Int(n));
                    }
                }
                values
            } else if param.set.is_some() {
                self.set_values(a, i).to_vec()
            } else {
                let size = self.domain_size(program, &param.ty, param.bounds);
                (0..size)
                    .map(|i| self.domain_value(&param.ty, param.bounds, i))
                    .collect()
            };
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    values.iter().map(move |v| {
                        let mut c = c.clone();
                        c.push(v.clone());
                        c
                    })
                })
                .collect();
        }
        combos
    }

    /// The first requirement that fails, with its rendered reason.
    fn first_failing(
        &self,
        program: &ir::Program,
        def: &ir::ActionDef,
        player: u8,
        args: &[Value],
    ) -> R<Option<(usize, String)>> {
        let mut locals = action_locals(def, player, args.len());
        locals[1..1 + args.len()].clone_from_slice(args);
        match self.first_failing_in(program, def, &mut locals)? {
            Some(i) => {
                let reason =
                    Eval::new(program, &self.state).text(&def.requires[i].reason, &mut locals)?;
                Ok(Some((i, reason)))
            }
            None => Ok(None),
        }
    }

    /// Why an argument is outside its parameter's range written with expressions, if one is.
    fn out_of_range(
        &self,
        program: &ir::Program,
        def: &ir::ActionDef,
        player: u8,
        args: &[Value],
    ) -> Option<String> {
        let mut locals = action_locals(def, player, args.len());
        let mut bounds = [None; MAX_PARAMS];
        match self.param_ranges(program, def, &mut locals, &mut bounds) {
            Ok(true) => {}
            Ok(false) => return None,
            Err(e) => return Some(format!("the range of a parameter failed to evaluate: {e}")),
        }
        def.params
            .iter()
            .zip(args)
            .enumerate()
            .find_map(|(i, (p, v))| {
                let (Some(range), Some((lo, hi)), Value::Int(n)) = (&p.range, bounds[i], v) else {
                    return None;
                };
                let written = program.sources.snippet(range.0.span.to(range.1.span));
                (*n < lo || *n > hi).then(|| {
                    if lo > hi {
                        format!("<{}> has no value now (its range is `{written}`)", p.name)
                    } else {
                        format!(
                            "<{}> is from {lo} to {hi} now (its range is `{written}`)",
                            p.name
                        )
                    }
                })
            })
    }

    /// The index of the first requirement that fails, with `me` and the arguments in `locals`.
    fn first_failing_in(
        &self,
        program: &ir::Program,
        def: &ir::ActionDef,
        locals: &mut [Value],
    ) -> R<Option<usize>> {
        for (i, r) in def.requires.iter().enumerate() {
            if !Eval::new(program, &self.state).bool(&r.cond, locals)? {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// Why the arguments typed after an action's name are none of its moves: the argument that
    /// is no value of its parameter, with the values it could be, or the count of arguments
    /// when that is what is wrong.
    fn no_such_arguments(
        &self,
        def: &ir::ActionDef,
        combos: &[Vec<Value>],
        typed: &[String],
        shown: &dyn Fn(&[Value]) -> Vec<String>,
    ) -> String {
        let usage = || {
            let params: Vec<String> = def.params.iter().map(|p| format!("<{}>", p.name)).collect();
            format!("{} {}", def.name, params.join(" "))
        };
        let words = |c: &[Value]| shown(c).join(" ").split_whitespace().count();
        if !combos.iter().any(|c| words(c) == typed.len()) {
            return format!(
                "`{}` takes {} argument(s): {}",
                def.name,
                def.params.len(),
                usage()
            );
        }
        // The first parameter whose typed word is none of its values (one word a value).
        for (i, param) in def.params.iter().enumerate() {
            // Each value as typed (compared) and as shown (listed).
            let mut values: Vec<(String, String)> = Vec::new();
            for c in combos {
                let v = shown(c).swap_remove(i);
                if !values.iter().any(|(x, _)| *x == v) {
                    values.push((
                        v,
                        super::sets::show_arg(&self.program, &self.state, param, &c[i]),
                    ));
                }
            }
            let Some(word) = typed.get(i) else { break };
            if values.iter().all(|(v, _)| !v.contains(' '))
                && !values.iter().any(|(v, _)| v == word)
            {
                let list = listed(values.iter().map(|(_, v)| v.as_str()));
                return format!(
                    "`{word}` is not a value of <{}>; the values are: {list}",
                    param.name
                );
            }
        }
        let sets: Vec<String> = def
            .params
            .iter()
            .filter(|p| p.set.is_some())
            .map(|p| format!("<{}> names each value once, in any order", p.name))
            .collect();
        if sets.is_empty() {
            format!("there is no such move: {}", usage())
        } else {
            format!("there is no such move: {} ({})", usage(), sets.join("; "))
        }
    }

    /// Why a typed move is not legal for `player`, in the rules' own words, and the move it
    /// names when it is close to one (a misspelt action's name).
    pub(super) fn why_not(&self, player: u8, input: &str) -> (String, Option<String>) {
        let mut close = None;
        let reason = self.why_refused(player, input, &mut close);
        (reason, close)
    }

    /// Why a last resort is refused: another move of the turn is possible (`None` if the
    /// action is no last resort, or no other move is).
    fn other_move_first(
        &self,
        program: &ir::Program,
        t: &Turn,
        def: &ir::ActionDef,
    ) -> Option<String> {
        def.last_resort.as_ref()?;
        let (i, &(other, start)) = t
            .moves
            .iter()
            .enumerate()
            .find(|(_, (a, _))| program.actions[a.index()].last_resort.is_none())?;
        let end = t.moves.get(i + 1).map_or(t.args.len(), |m| m.1 as usize);
        let label = move_label(
            program,
            &self.state,
            &program.actions[other.index()],
            t.args.get(start as usize..end).unwrap_or_default(),
        );
        Some(format!(
            "another move is possible: {label} (`{}` is offered only when no other move is)",
            def.name
        ))
    }

    /// [`Game::why_not`]'s reason, noting in `close` the move suggested.
    fn why_refused(&self, player: u8, input: &str, close: &mut Option<String>) -> String {
        let program = self.program.clone();
        match &self.pending {
            Some(Pending::Turn(t)) => {
                let (S::Turn { actions, .. } | S::Window { actions, .. }) =
                    &program.block(t.at.0).stmts[t.at.1].kind
                else {
                    return "the options are the actions listed".to_string();
                };
                let mut words = input.split_whitespace();
                let name = words.next().unwrap_or("");
                let Some(&a) = actions
                    .iter()
                    .find(|a| program.actions[a.index()].name.eq_ignore_ascii_case(name))
                else {
                    return no_such_action(&program, name, actions, close);
                };
                let def = &program.actions[a.index()];
                let rest: Vec<String> = words.map(str::to_lowercase).collect();
                let typed = rest.join(" ");
                let combos = self.domains(&program, a, player, &rest);
                // Each argument as typed: a value `shown as` a text with spaces is several words.
                let shown = |c: &[Value]| -> Vec<String> {
                    c.iter()
                        .zip(&def.params)
                        .map(|(v, p)| {
                            normalize(&super::sets::show_arg(&program, &self.state, p, v))
                        })
                        .collect()
                };
                let Some(args) = combos.iter().find(|c| {
                    shown(c).join(" ") == typed
                        || super::sets::typed_in_any_order(&program, &self.state, def, c, input)
                }) else {
                    return self.no_such_arguments(def, &combos, &rest, &shown);
                };
                let args = args.clone();
                if let Some(why) = self.other_move_first(&program, t, def) {
                    return why;
                }
                let failing = self.first_failing(&program, def, player, &args);
                // A range written with expressions is looked at after the requirements that
                // read no parameter, as when moves are listed.
                let shared = matches!(&failing, Ok(Some((i, _))) if *i < def.plan.shared());
                if let (false, Some(why)) =
                    (shared, self.out_of_range(&program, def, player, &args))
                {
                    return why;
                }
                match failing {
                    Ok(Some((i, reason))) => {
                        let cond = program.sources.snippet(def.requires[i].cond.span);
                        format!("{reason} (requires `{cond}`)")
                    }
                    Ok(None) => "it is allowed".to_string(),
                    Err(e) => format!("a requirement failed to evaluate: {e}"),
                }
            }
            Some(_) => {
                let options = self.options(player);
                format!(
                    "the options are: {}",
                    listed(options.iter().map(|o| o.label.as_str()))
                )
            }
            None => "the game is over".to_string(),
        }
    }
}

/// Why a typed move is refused when its first word names no action of the turn: the nearest
/// action's name put in `close`, or the actions listed.
fn no_such_action(
    program: &ir::Program,
    name: &str,
    actions: &[ir::ActionId],
    close: &mut Option<String>,
) -> String {
    let names: Vec<&str> = actions
        .iter()
        .map(|a| program.actions[a.index()].name.as_str())
        .collect();
    match crate::diag::suggest_name(name, names.iter().copied()) {
        Some(s) => {
            let reason = format!("there is no action `{name}` now; did you mean `{s}`?");
            *close = Some(s.to_string());
            reason
        }
        None => format!(
            "there is no action `{name}` now; the actions are {}",
            names.join(", ")
        ),
    }
}

/// Entries of a list written out in a message before it is cut.
const LISTED: usize = 24;

/// The entries joined by commas; past [`LISTED`] of them, cut, with how many there are in all
/// (a choice among 100,000 numbers must not answer a mistyped one with all of them).
pub(super) fn listed<'a>(entries: impl ExactSizeIterator<Item = &'a str>) -> String {
    let total = entries.len();
    let mut list = entries.take(LISTED).collect::<Vec<_>>().join(", ");
    if total > LISTED {
        list.push_str(&format!(", ... ({total} in all)"));
    }
    list
}

/// The parameters of an action being listed: each one's count of values and bounds, and the
/// values found once a turn for those narrowed by a list that reads no parameter
/// (`ir::MovePlan::steady`).
struct Domains<'a> {
    sizes: &'a [usize],
    bounds: &'a [Bounds],
    steady: [Option<u64>; MAX_PARAMS],
}

/// The values a parameter takes in a turn's listing, as indices among its domain's values,
/// ascending.
enum Values {
    /// Every value of the domain.
    All(std::ops::Range<usize>),
    /// The values whose bits are set (a domain of at most 64 values).
    Bits(u64),
    /// The values listed (ascending, without repeats), and how many have been given.
    Listed(Vec<usize>, usize),
}

impl Values {
    /// The next value to try.
    fn next(&mut self) -> Option<usize> {
        match self {
            Values::All(range) => range.next(),
            Values::Bits(bits) => {
                if *bits == 0 {
                    return None;
                }
                let i = bits.trailing_zeros() as usize;
                *bits &= *bits - 1;
                Some(i)
            }
            Values::Listed(xs, at) => {
                let i = xs.get(*at).copied();
                *at += 1;
                i
            }
        }
    }
}

/// Makes `locals` an action's slots for its requirements: `me` in the first, and at least
/// `size` of them. The others keep what an earlier action of the turn left there rather than
/// being emptied for each action (most of a turn's listing, where an action has no
/// parameters): nothing reads a slot before it is bound (a parameter has its value before a
/// requirement that reads it is checked, a query's variable at each element; a parameter's
/// range reads `me` only), and the turn empties them all at its end.
fn requirement_slots(locals: &mut Vec<Value>, size: usize, player: u8) {
    if locals.len() < size {
        locals.resize_with(size, || Value::None);
    }
    locals[0].put(Value::player(player));
}

/// How many combinations of values parameters of these sizes have (`usize::MAX` past it).
fn combinations_of(sizes: &[usize]) -> usize {
    sizes
        .iter()
        .try_fold(1usize, |acc, s| acc.checked_mul(*s))
        .unwrap_or(usize::MAX)
}

/// The error of a turn that would try more than [`MAX_MOVES`] moves, `def` with `combinations`.
fn move_limit(def: &ir::ActionDef, combinations: usize) -> Box<super::RuntimeError> {
    err(
        "move-limit",
        format!(
            "a turn would try more than {MAX_MOVES} moves: `{}` alone has {} combinations of its parameters' values",
            def.name,
            if combinations == usize::MAX {
                "countless".to_string()
            } else {
                combinations.to_string()
            }
        ),
        def.span,
        "give the parameters fewer values, or choose the rest inside the action with `choose`",
    )
}

/// The error of a parameter's range that holds more values now than a parameter may take.
fn too_wide(
    program: &ir::Program,
    def: &ir::ActionDef,
    param: &ir::ActionParam,
    range: &(ir::Expr, ir::Expr),
    (lo, hi): (i64, i64),
) -> Box<super::RuntimeError> {
    let width = i128::from(hi) - i128::from(lo) + 1;
    let written = program.sources.snippet(range.0.span.to(range.1.span));
    err(
        "range-too-wide",
        format!(
            "<{}> of `{}` (`{written}`) is from {lo} to {hi} now: {width} values, more than the {} \
             one parameter may take",
            param.name,
            def.name,
            ir::MAX_PARAM_VALUES
        ),
        range.0.span.to(range.1.span),
        "cap the range where the rules allow it, as in `1..min([me.money, 100])`, or choose the \
         number inside the action with `choose`",
    )
}

/// Adds the move of action `a` with `args` to `turn`.
fn keep(turn: &mut Turn, a: ir::ActionId, args: &[Value]) {
    turn.moves.push((a, turn.args.len() as u32));
    turn.args.extend_from_slice(args);
}

/// The slots of an action taken by `player`, `me` set and its `n` arguments still to fill.
fn action_locals(def: &ir::ActionDef, player: u8, n: usize) -> Vec<Value> {
    let mut locals = vec![Value::None; def.locals.max(1 + n)];
    locals[0].put(Value::player(player));
    locals
}

/// The type that shows the options of the decision at `at`, where the value alone would not
/// (a record is kept as a list of its fields): `None` for every other choice.
pub(super) fn options_type(program: &ir::Program, at: At) -> Option<&ir::Type> {
    match &program.block(at.0).stmts[at.1].kind {
        S::Choose { element, .. } | S::Secretly { element, .. } => shown_by_type(element),
        _ => None,
    }
}

/// `element`, where options of that type must be shown by it (records); `None` otherwise.
pub(super) fn shown_by_type(element: &ir::Type) -> Option<&ir::Type> {
    ir::RecordDef::within(element).then_some(element)
}

/// One option as shown: by `element` where the choice has one (see [`options_type`]).
pub(super) fn show_option(
    program: &ir::Program,
    state: &State,
    v: &Value,
    element: Option<&ir::Type>,
) -> String {
    match element {
        Some(ty) => super::show_typed(program, state, v, ty),
        None => show(program, state, v),
    }
}

/// An instance's name without the number that tells it from an alike one: `tempura#2` is
/// `tempura` (the engine numbers repeated names so, `exec.rs`).
pub(super) fn without_repeat_number(name: &str) -> &str {
    match name.rsplit_once('#') {
        Some((base, n))
            if !base.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) =>
        {
            base
        }
        _ => name,
    }
}

/// The label of option `index` of a list: the value as shown, numbered (`#2`, `#3`) when an
/// earlier option is shown the same, so that every option can be typed.
pub(super) fn option_label(
    program: &ir::Program,
    state: &State,
    options: &[Value],
    index: usize,
    element: Option<&ir::Type>,
) -> String {
    let label = show_option(program, state, &options[index], element);
    let repeats = match &options[index] {
        // A number's label is its value (lists hold one type): compare values, label none.
        Value::Int(_) => options[..index]
            .iter()
            .filter(|v| **v == options[index])
            .count(),
        _ => options[..index]
            .iter()
            .filter(|v| show_option(program, state, v, element) == label)
            .count(),
    };
    if repeats > 0 {
        format!("{label}#{}", repeats + 1)
    } else {
        label
    }
}

/// True if `options` are numbers in increasing order, as a range gives them: each is labelled
/// by its value alone, and found by it with a binary search.
pub(super) fn increasing_numbers(options: &[Value]) -> bool {
    options.iter().all(|v| matches!(v, Value::Int(_)))
        && options
            .windows(2)
            .all(|w| matches!((&w[0], &w[1]), (Value::Int(a), Value::Int(b)) if a < b))
}

/// Every label of a list's options at once, as [`option_label`] gives them one by one, in
/// time linear in the list (one by one would be quadratic: a `choose` from a long range must
/// not stall the REPL).
pub(super) fn option_labels(
    program: &ir::Program,
    state: &State,
    options: &[Value],
    element: Option<&ir::Type>,
) -> Vec<String> {
    let mut labels: Vec<String> = options
        .iter()
        .map(|v| show_option(program, state, v, element))
        .collect();
    // A range (`choose n from 1..100000`) cannot repeat a label: no need to count them.
    if increasing_numbers(options) {
        return labels;
    }
    let mut repeats = vec![0usize; labels.len()];
    {
        let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for (label, repeat) in labels.iter().zip(&mut repeats) {
            let n = seen.entry(label.as_str()).or_insert(0);
            *n += 1;
            *repeat = *n;
        }
    }
    for (label, n) in labels.iter_mut().zip(repeats) {
        if n > 1 {
            label.push_str(&format!("#{n}"));
        }
    }
    labels
}

/// The two answers of the `ask` at `at`.
pub(super) fn ask_labels(program: &ir::Program, at: At) -> [&str; 2] {
    match &program.block(at.0).stmts[at.1].kind {
        S::Ask { yes, no, .. } => [yes, no],
        _ => ["yes", "no"],
    }
}

/// A move as its player types it: the action's name and every argument.
pub(super) fn move_label(
    program: &ir::Program,
    state: &State,
    def: &ir::ActionDef,
    args: &[Value],
) -> String {
    label_showing(program, state, def, args, false)
}

/// What the word for a secret argument reads to everyone but the player who moved.
pub(super) const HIDDEN_ARGUMENT: &str = "(secret)";

/// A move as everyone but its player reads it: its secret arguments hidden.
pub(super) fn public_move_label(
    program: &ir::Program,
    state: &State,
    def: &ir::ActionDef,
    args: &[Value],
) -> String {
    label_showing(program, state, def, args, true)
}

fn label_showing(
    program: &ir::Program,
    state: &State,
    def: &ir::ActionDef,
    args: &[Value],
    hide_secrets: bool,
) -> String {
    let mut s = def.name.clone();
    for (a, p) in args.iter().zip(&def.params) {
        s.push(' ');
        if hide_secrets && p.secret {
            s.push_str(HIDDEN_ARGUMENT);
        } else {
            s.push_str(&super::sets::show_arg(program, state, p, a));
        }
    }
    s
}
