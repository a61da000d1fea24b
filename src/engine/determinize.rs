//! A game as one seat might imagine it: what that seat cannot see, redealt at random.
//!
//! Search bots must not read what their seat cannot see. They search copies of the game in
//! which every value hidden from their seat has been shuffled among the places hidden from it
//! (counts preserved: each list keeps its length, and values move only among values of their
//! own kind), and in which chance is drawn from a fresh stream. The shuffle starts from the
//! hidden values in sorted order, so the copy depends only on what the seat can see, the
//! collection of hidden values, and the seed: two games that differ only in where hidden
//! values lie give the same copies.
//!
//! Known limit: values held by the rule that is running (its local names) are not redealt.

use super::view::{sight, Sight, Viewer};
use super::{open_choice, Game, Mode, Pending, Rng};
use crate::ir::{KindId, Value, VarDef};

/// Where a hidden value lies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Spot {
    Global(usize),
    PlayerVar(usize, usize),
    Field(usize, usize, usize),
}

/// A hidden value's place: the variable or field, its position if it is a list element (or a
/// record's field), and the positions inside that element for a record's hidden field.
#[derive(Clone, Copy)]
struct Place {
    spot: Spot,
    element: Option<usize>,
    deeper: Deeper,
}

/// Positions inside an element, one a level (a record's field, a list's element), the first
/// `.0` of them used.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Deeper(u8, [u32; crate::ir::MAX_PATH]);

impl Deeper {
    fn steps(&self) -> &[u32] {
        &self.1[..self.0 as usize]
    }
}

/// Values move only among values of the same kind: instances of one kind, values of one enum,
/// seats, numbers, truth values, `none`.
fn group(v: &Value) -> Option<(u8, u32)> {
    Some(match v {
        Value::None => (0, 0),
        Value::Bool(_) => (1, 0),
        Value::Int(_) => (2, 0),
        Value::Player(_) => (3, 0),
        Value::Enum(x) => (4, x.enum_id().0),
        Value::Entity(x) => (5, x.kind().0),
        // A list is no value to deal: the values inside it are dealt one by one.
        Value::List(_) => return None,
    })
}

/// What [`Game::determinize`] redeals for one seat in one position, worked out once: a search
/// bot imagines many games from the same position, and finding the hidden places (every field
/// of every instance asked whether the seat may see it) costs more than redealing them.
///
/// Opaque: it holds the hidden values (as a sorted collection, which is all a copy depends on),
/// so a bot can only hand it back to [`Game::determinize_by`], never read it.
pub struct Redeal {
    seat: u8,
    /// The position it was made for: a plan is good for that state only.
    epoch: super::memo::Epoch,
    /// For each group of values that may trade places: the places, and the values in sorted
    /// order.
    groups: Vec<(Vec<Place>, Vec<Value>)>,
    /// The variables the places lie in (`ir::memo::Variables`), each once: a redeal notes one
    /// write to each, not one a place.
    variables: Vec<usize>,
}

impl Redeal {
    /// The seat whose imagined games this plan makes.
    pub fn seat(&self) -> u8 {
        self.seat
    }
}

impl Game {
    /// A copy of this game as `seat` might imagine it (see the module documentation), played
    /// as a playout: no log, no record, no invariant checks.
    pub fn determinize(&self, seat: u8, seed: u64) -> Game {
        self.determinize_by(&self.redeal(seat), seed)
    }

    /// What [`Game::determinize`] would redeal for `seat` in this position, for
    /// [`Game::determinize_by`] to use again and again.
    pub fn redeal(&self, seat: u8) -> Redeal {
        let places = self.hidden_places(seat);
        // One group at a time: its places, and its values sorted, to be shuffled.
        let mut keys: Vec<(u8, u32)> = places
            .iter()
            .filter_map(|p| group(self.value_at(*p)))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let groups = keys
            .into_iter()
            .map(|g| {
                let spots: Vec<Place> = places
                    .iter()
                    .copied()
                    .filter(|p| group(self.value_at(*p)) == Some(g))
                    .collect();
                let mut values: Vec<Value> =
                    spots.iter().map(|p| self.value_at(*p).clone()).collect();
                values.sort();
                (spots, values)
            })
            .collect();
        let mut variables: Vec<usize> = places.iter().map(|p| self.variable_of(p.spot)).collect();
        variables.sort_unstable();
        variables.dedup();
        Redeal {
            seat,
            epoch: self.state.epoch,
            groups,
            variables,
        }
    }

    /// [`Game::determinize`] for the plan's seat, with the plan made by [`Game::redeal`] in
    /// this very position (a plan from another position is made afresh).
    pub fn determinize_by(&self, plan: &Redeal, seed: u64) -> Game {
        let mut copy = Game {
            program: self.program.clone(),
            seed: self.seed,
            limits: self.limits,
            mode: Mode::playout(),
            state: self.state.clone(),
            rng: Rng::new(seed, u64::MAX),
            fixed: None,
            frames: self.frames.clone(),
            stack: self.stack.clone(),
            secrets: self.secrets.clone(),
            kept: Default::default(),
            held: Default::default(),
            pending: self.pending.clone(),
            outcome: self.outcome.clone(),
            log: Vec::new(),
            history: Vec::new(),
            decisions: self.decisions,
            ran: Default::default(),
            clamps: Default::default(),
            trail: None,
            replay: None,
        };
        self.redeal_into(plan, seed, &mut copy);
        copy
    }

    /// [`Game::determinize_by`] into a game kept from an earlier call, whose buffers it reuses
    /// (a search imagines a thousand games a decision): the same imagined game.
    pub fn determinize_into(&self, plan: &Redeal, seed: u64, copy: &mut Game) {
        copy.program.clone_from(&self.program);
        // The copy's code may be another program's: it takes it again at its first run.
        copy.held = Default::default();
        copy.seed = self.seed;
        copy.limits = self.limits;
        copy.mode = Mode::playout();
        copy.state.clone_from(&self.state);
        copy.rng = Rng::new(seed, u64::MAX);
        copy.fixed = None;
        copy.frames.clone_from(&self.frames);
        copy.stack.clone_from(&self.stack);
        copy.secrets.clone_from(&self.secrets);
        copy.pending.clone_from(&self.pending);
        copy.outcome.clone_from(&self.outcome);
        copy.log.clear();
        copy.history.clear();
        copy.decisions = self.decisions;
        copy.trail = None;
        copy.replay = None;
        self.redeal_into(plan, seed, copy);
    }

    /// Shuffles the values hidden from the plan's seat in `copy`, a copy of this game whose
    /// chance (`rng`, and `fixed`: chance a scenario fixed is the future, which nobody
    /// imagines) and log are already those of an imagined game.
    fn redeal_into(&self, plan: &Redeal, seed: u64, copy: &mut Game) {
        if !plan.epoch.same(self.state.epoch) {
            return self.redeal_into(&self.redeal(plan.seat), seed, copy);
        }
        let mut shuffler = Rng::new(seed, u64::MAX - 1);
        let mut values = super::spare::values();
        for (spots, sorted) in &plan.groups {
            values.clone_from(sorted);
            shuffler.shuffle(&mut values);
            copy.put_all(spots, &mut values);
        }
        super::spare::give_values(values);
        // Only the variables redealt are written: what an imagined game did not redeal holds
        // the position's values, and results remembered for them still apply. One write for
        // all of them: nothing reads between the places' writes.
        if !plan.variables.is_empty() {
            copy.state.touch_variables(&plan.variables);
        }
        copy.forget_others_secret_choices(plan.seat);
    }

    /// Every place whose value `seat` cannot see, in a fixed order.
    fn hidden_places(&self, seat: u8) -> Vec<Place> {
        let program = self.program.clone();
        let viewer = Viewer::Player(seat);
        let mut places = Vec::new();
        let mut add = |game: &Game, def: &VarDef, subject: Value, spot: Spot, v: &Value| {
            let sight = sight(game, def, &subject, v, viewer);
            if game.program.veiled(&def.ty) {
                // Record fields hidden inside what the seat sees are dealt again too.
                veiled_places(game, def, &subject, v, &sight, viewer, spot, &mut places);
            }
            if sight == Sight::All {
                return;
            }
            match v {
                // The elements of a list the seat sees (`visible last k`) stay where they are.
                Value::List(xs) => {
                    for i in (0..xs.len()).filter(|i| !sight.shows(*i)) {
                        if let Value::List(_) = &xs[i] {
                            // A record or a list inside the list: each value in it is dealt
                            // again, as values of its own kind, rather than kept as it lies.
                            let mut paths = Vec::new();
                            super::veil::all_paths(&xs[i], &mut Vec::new(), &mut paths);
                            places.extend(paths.iter().map(|path| Place {
                                spot,
                                element: Some(i),
                                deeper: deeper_of(path),
                            }));
                        } else {
                            places.push(Place {
                                spot,
                                element: Some(i),
                                deeper: Deeper::default(),
                            });
                        }
                    }
                }
                _ => places.push(Place {
                    spot,
                    element: None,
                    deeper: Deeper::default(),
                }),
            }
        };
        for (g, def) in program.globals.iter().enumerate() {
            add(
                self,
                def,
                Value::None,
                Spot::Global(g),
                &self.state.globals[g],
            );
        }
        for p in 0..self.state.players as usize {
            for (v, def) in program.player_vars.iter().enumerate() {
                let value = self.state.player_vars.get(p, v);
                add(
                    self,
                    def,
                    Value::player(p as u8),
                    Spot::PlayerVar(p, v),
                    value,
                );
            }
        }
        for (k, kind) in program.kinds.iter().enumerate() {
            for i in 0..self.state.entities[k].len() {
                for (f, def) in kind.fields.iter().enumerate() {
                    let it = Value::entity(KindId(k as u32), i as u32);
                    let value = self.state.entities[k].get(i, f);
                    add(self, def, it, Spot::Field(k, i, f), value);
                }
            }
        }
        places
    }

    /// The value at a place: its spot, element and the positions inside it.
    fn value_at(&self, p: Place) -> &Value {
        let v = match p.spot {
            Spot::Global(g) => &self.state.globals[g],
            Spot::PlayerVar(q, v) => self.state.player_vars.get(q, v),
            Spot::Field(k, i, f) => self.state.entities[k].get(i, f),
        };
        let mut v = match (v, p.element) {
            (Value::List(xs), Some(i)) => &xs[i],
            (v, _) => v,
        };
        for &i in p.deeper.steps() {
            if let Value::List(xs) = v {
                v = &xs[i as usize];
            }
        }
        v
    }

    /// The variable (`ir::memo::Variables`) a spot lies in.
    fn variable_of(&self, spot: Spot) -> usize {
        let variables = &self.program.variables;
        match spot {
            Spot::Global(g) => variables.global(g),
            Spot::PlayerVar(_, v) => variables.player_var(v),
            Spot::Field(k, _, f) => variables.field(k, f),
        }
    }

    /// The value at a spot, to write.
    fn spot_mut(&mut self, spot: Spot) -> &mut Value {
        match spot {
            Spot::Global(g) => &mut self.state.globals[g],
            Spot::PlayerVar(q, v) => self.state.player_vars.get_mut(q, v),
            Spot::Field(k, i, f) => self.state.entities[k].get_mut(i, f),
        }
    }

    /// Puts `values` at `places`, one for one (`values` is left empty). The places of one list
    /// come one after another (`hidden_places`), so each list is made writable once for all of
    /// its places rather than once a place. Writes no epoch: the caller notes the variables.
    fn put_all(&mut self, places: &[Place], values: &mut Vec<Value>) {
        let mut at = 0;
        let mut values = values.drain(..);
        while at < places.len() {
            let spot = places[at].spot;
            if places[at].deeper.0 > 0 {
                // A record's hidden field, inside an element: written on its own.
                if let Some(v) = values.next() {
                    self.put_deep(places[at], v);
                }
                at += 1;
                continue;
            }
            // The run of places in the same list (or the one place of a plain value).
            let run = places[at..]
                .iter()
                .take_while(|p| p.element.is_some() && p.deeper.0 == 0 && p.spot == spot)
                .count()
                .max(1);
            let target = self.spot_mut(spot);
            match (target, places[at].element) {
                (Value::List(xs), Some(_)) => {
                    let xs = xs.make_mut();
                    for p in &places[at..at + run] {
                        if let (Some(i), Some(v)) = (p.element, values.next()) {
                            xs[i] = v;
                        }
                    }
                }
                (target, _) => {
                    for v in values.by_ref().take(run) {
                        *target = v;
                    }
                }
            }
            at += run;
        }
    }

    /// Puts `v` at a place inside an element (a record's hidden field).
    fn put_deep(&mut self, place: Place, v: Value) {
        let mut target = self.spot_mut(place.spot);
        let steps = place
            .element
            .into_iter()
            .chain(place.deeper.steps().iter().map(|&i| i as usize));
        for i in steps {
            let Value::List(xs) = target else { return };
            let Some(x) = xs.make_mut().get_mut(i) else {
                return;
            };
            target = x;
        }
        *target = v;
    }

    /// In a secret choice that `seat` is making, the others' choices already made are secret:
    /// they are taken back, and everyone is asked again in the imagined state.
    fn forget_others_secret_choices(&mut self, seat: u8) {
        let Some(Pending::Secret { choices, .. }) = &self.pending else {
            return;
        };
        if choices.iter().all(|c| c.chosen.is_none() || c.seat == seat) {
            return;
        }
        // The seat's own picks of a choice of several it is making stay its own.
        let own = open_choice(choices, seat).and_then(|c| c.pick.clone());
        if let Some(Pending::Secret { choices, .. }) = &mut self.pending {
            for c in choices.iter_mut() {
                c.chosen = None;
            }
        }
        // The options are listed again from the imagined state. A failure leaves the copy as
        // it is: a bot searching it finds that line of play ends there.
        let _ = self.refresh_pending();
        if let (Some(own), Some(Pending::Secret { choices, .. })) = (own, &mut self.pending) {
            if let Some(c) = choices
                .iter_mut()
                .find(|c| c.seat == seat && c.pick.is_some())
            {
                c.pick = Some(own);
            }
        }
    }
}

/// The places of the record fields `viewer` may not see inside the parts of `v` it sees (`v`
/// the value of `def` held by `subject`, `sight` what the viewer sees of it).
#[allow(clippy::too_many_arguments)]
fn veiled_places(
    game: &Game,
    def: &VarDef,
    subject: &Value,
    v: &Value,
    sight: &Sight,
    viewer: Viewer,
    spot: Spot,
    places: &mut Vec<Place>,
) {
    let owner = super::veil::owner_of(subject);
    let mut paths = Vec::new();
    let mut at = Vec::new();
    match (sight, v) {
        (Sight::All, _) => {
            super::veil::hidden_paths(game, v, &def.ty, &owner, viewer, &mut at, &mut paths)
        }
        (Sight::Part(..), Value::List(xs)) => {
            let elem = def.ty.element().unwrap_or(crate::ir::Type::Error);
            for i in sight.shown(xs.len()) {
                at.push(i as u32);
                super::veil::hidden_paths(game, &xs[i], &elem, &owner, viewer, &mut at, &mut paths);
                at.pop();
            }
        }
        _ => {}
    }
    for path in paths {
        let Some((&first, rest)) = path.split_first() else {
            continue;
        };
        places.push(Place {
            spot,
            element: Some(first as usize),
            deeper: deeper_of(rest),
        });
    }
}

/// The positions `path` names inside an element, as a [`Deeper`] (at most `MAX_PATH`).
fn deeper_of(path: &[u32]) -> Deeper {
    let mut deeper = Deeper::default();
    for (k, &i) in path.iter().take(crate::ir::MAX_PATH).enumerate() {
        deeper.1[k] = i;
        deeper.0 = k as u8 + 1;
    }
    deeper
}
