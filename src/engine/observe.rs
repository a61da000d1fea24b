//! What a seat sees, compared between two positions of one game: the values its view shows,
//! the decision in progress as it sees it, and the log lines it read since the last pause. An
//! imagined game is kept only where, pause by pause, it looks to the seat as the real game did;
//! a shadow of the real game (one hidden event changed) tells the seat something exactly where
//! it looks different.
//!
//! Invariant: only what `view.rs` shows the seat is compared (the same visibility rules), so
//! no two positions that the seat's view could not tell apart are told apart here.

use super::veil;
use super::view::{listed, sight, visible, Sight, Viewer};
use super::{open_choice, Game, MoveHasher, Pending};
use crate::ir::{KindId, Value, VarDef, Visibility};

/// Where a difference lies, as the first word of its key.
const GLOBAL: u64 = 1;
const PLAYER_VAR: u64 = 2;
const FIELD: u64 = 3;
const LISTED: u64 = 4;
const PENDING: u64 = 5;
const OUTCOME: u64 = 6;
pub(super) const READ: u64 = 7;
const LENGTH: u64 = u64::MAX;

/// The key of a place: a few numbers mixed into one (never attacked, only compared).
pub(super) fn key(tag: u64, a: u64, b: u64, c: u64) -> u64 {
    let mut x = tag.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for n in [a, b, c] {
        x = (x ^ n).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 31;
    }
    x
}

/// Collects differences: all of them, or stops at the first.
pub(super) struct Differences<'o> {
    pub(super) out: &'o mut Vec<u64>,
    pub(super) all: bool,
}

impl Differences<'_> {
    fn note(&mut self, k: u64) -> bool {
        self.out.push(k);
        !self.all
    }
}

impl Game {
    /// What option `index` of `seat`'s decision looks like to `viewer` once taken: its key
    /// ([`Game::option_key`]) where the viewer reads the move whole (its own, or an open one),
    /// and only what is announced of it otherwise (a secret choice: that a choice was made; a
    /// move with `secret` arguments: the action and its other arguments). Options with the
    /// same public key cannot be told apart by the viewer.
    pub(crate) fn public_key(&self, seat: u8, index: usize, viewer: u8) -> Option<u64> {
        use std::hash::{Hash, Hasher};
        if seat == viewer || index >= self.option_count(seat) {
            return self.option_key(seat, index);
        }
        const SECRET: u64 = 0x5ec2e7;
        let secret = matches!(
            &self.pending,
            Some(Pending::Secret { .. }) | Some(Pending::Choose { secret: true, .. })
        );
        if secret {
            return Some(SECRET);
        }
        match self.pending.as_ref()? {
            Pending::Turn(t) => {
                let (a, args) = t.get(&self.program, index);
                let params = &self.program.actions[a.index()].params;
                let mut h = MoveHasher::default();
                (0u8, a.0).hash(&mut h);
                for (p, v) in params.iter().zip(args) {
                    if p.secret {
                        SECRET.hash(&mut h);
                    } else {
                        v.hash(&mut h);
                    }
                }
                Some(h.finish())
            }
            _ => self.option_key(seat, index),
        }
    }

    /// True if `viewer` reads option `index` of `seat`'s decision only in part once taken (a
    /// secret choice, or a move with `secret` arguments): decided by the kind of decision and
    /// the action taken, both public, never by the other options the mover has. So what an
    /// imagined game does at this move depends only on what the viewer knows.
    pub(crate) fn read_in_part(&self, seat: u8, index: usize, viewer: u8) -> bool {
        if seat == viewer || index >= self.option_count(seat) {
            return false;
        }
        match self.pending.as_ref() {
            Some(Pending::Secret { .. }) | Some(Pending::Choose { secret: true, .. }) => true,
            Some(Pending::Turn(t)) => {
                let (a, _) = t.get(&self.program, index);
                self.program.actions[a.index()]
                    .params
                    .iter()
                    .any(|p| p.secret)
            }
            _ => false,
        }
    }

    /// The values `viewer` reads in the announcement of option `index` of `seat`'s decision:
    /// a move's arguments (but its secret ones, to others), the value chosen (unless in secret,
    /// to others). Instances among them are in plain sight from then on.
    pub(crate) fn announced_values(&self, seat: u8, index: usize, viewer: u8) -> Vec<Value> {
        let own = seat == viewer;
        match &self.pending {
            Some(Pending::Turn(t)) if index < t.moves.len() => {
                let (a, args) = t.get(&self.program, index);
                let params = &self.program.actions[a.index()].params;
                params
                    .iter()
                    .zip(args)
                    .filter(|(p, _)| own || !p.secret)
                    // A set's elements are each in plain sight.
                    .flat_map(|(_, v)| match v {
                        Value::List(xs) => xs.iter().cloned().collect::<Vec<_>>(),
                        other => vec![other.clone()],
                    })
                    .collect()
            }
            Some(Pending::Choose {
                options,
                secret,
                pick: None,
                ..
            }) if (own || !*secret) && index < options.len() => vec![options[index].clone()],
            Some(Pending::Secret { choices, .. }) if own => open_choice(choices, seat)
                .and_then(|c| c.options.get(index).cloned())
                .into_iter()
                .collect(),
            _ => self
                .step_key(seat, index)
                .filter(|_| own || !self.decision_is_secret())
                .and_then(|(_, v)| v.cloned())
                .into_iter()
                .collect(),
        }
    }

    /// Where `seat` would see this position differ from `other` (a position of the same game
    /// at the same pause), with what it read since the last pause: keys into `out`, all of
    /// them or only the first (`all`). Nothing in `out` means the seat cannot tell them apart.
    pub(crate) fn seen_differences(&self, other: &Game, seat: u8, all: bool, out: &mut Vec<u64>) {
        out.clear();
        let mut d = Differences { out, all };
        let _ = self.differ_read(other, &mut d)
            || self.differ_pending(other, seat, &mut d)
            || self.differ_view(other, seat, &mut d);
    }

    /// Log lines read since the last pause.
    fn differ_read(&self, other: &Game, d: &mut Differences) -> bool {
        let empty = Vec::new();
        let mine = self.replay.as_ref().map_or(&empty, |r| &r.read.parts);
        let theirs = other.replay.as_ref().map_or(&empty, |r| &r.read.parts);
        if mine == theirs {
            return false;
        }
        if d.note(key(READ, LENGTH, 0, 0)) {
            return true;
        }
        for (k, v) in mine {
            if theirs.iter().find(|(k2, _)| k2 == k).map(|(_, v2)| v2) != Some(v) && d.note(*k) {
                return true;
            }
        }
        for (k, _) in theirs {
            if !mine.iter().any(|(k2, _)| k2 == k) && d.note(*k) {
                return true;
            }
        }
        false
    }

    /// The decision in progress, or the end.
    fn differ_pending(&self, other: &Game, seat: u8, d: &mut Differences) -> bool {
        if self.outcome.as_ref().map(|o| (&o.winners, &o.scores))
            != other.outcome.as_ref().map(|o| (&o.winners, &o.scores))
        {
            return d.note(key(OUTCOME, 0, 0, 0));
        }
        let shape = |g: &Game| -> Option<(u8, u8, bool, Vec<u8>)> {
            Some(match g.pending.as_ref()? {
                Pending::Turn(t) => (0, t.player, false, Vec::new()),
                Pending::Choose { player, secret, .. } => (1, *player, *secret, Vec::new()),
                Pending::Ask { player, .. } => (2, *player, false, Vec::new()),
                Pending::Secret { .. } => (3, 0, true, g.waiting_on()),
            })
        };
        let (mine, theirs) = (shape(self), shape(other));
        if mine != theirs {
            return d.note(key(PENDING, 0, 0, 0));
        }
        let Some((kind, player, secret, _)) = mine else {
            return false;
        };
        let deciding = self.waiting_on().contains(&seat);
        // A prompt is read by whoever decides, and by all where the choice is open.
        let open = matches!(kind, 1 | 2) && !secret;
        if deciding || open {
            let asked = if deciding { seat } else { player };
            if self.prompt(asked) != other.prompt(asked) && d.note(key(PENDING, 1, 0, 0)) {
                return true;
            }
        }
        if deciding {
            let n = self.option_count(seat);
            if n != other.option_count(seat) {
                return d.note(key(PENDING, 2, 0, 0));
            }
            for i in 0..n {
                if self.option_key(seat, i) != other.option_key(seat, i)
                    && d.note(key(PENDING, 3, i as u64, 0))
                {
                    return true;
                }
            }
        }
        false
    }

    /// Every variable and field of the view.
    fn differ_view(&self, other: &Game, seat: u8, d: &mut Differences) -> bool {
        let program = &self.program;
        let (a, b) = (&self.state, &other.state);
        for (g, def) in program.globals.iter().enumerate() {
            let at = key(GLOBAL, g as u64, 0, 0);
            if self.differ_place(
                other,
                def,
                &Value::None,
                (&a.globals[g], &b.globals[g]),
                seat,
                at,
                d,
            ) {
                return true;
            }
        }
        for p in 0..a.players {
            let owner = Value::player(p);
            for (v, def) in program.player_vars.iter().enumerate() {
                let values = (
                    a.player_vars.get(p as usize, v),
                    b.player_vars.get(p as usize, v),
                );
                let at = key(PLAYER_VAR, u64::from(p), v as u64, 0);
                if self.differ_place(other, def, &owner, values, seat, at, d) {
                    return true;
                }
            }
        }
        for (k, kind) in program.kinds.iter().enumerate().filter(|(_, k)| k.mutable) {
            for i in 0..a.entities[k].len() {
                let it = Value::entity(KindId(k as u32), i as u32);
                let shown = listed(self, kind, &it);
                if shown != listed(other, kind, &it) {
                    if d.note(key(LISTED, k as u64, i as u64, 0)) {
                        return true;
                    }
                    continue;
                }
                if !shown {
                    continue;
                }
                for (f, def) in kind.fields.iter().enumerate() {
                    let values = (a.entities[k].get(i, f), b.entities[k].get(i, f));
                    let at = key(FIELD, k as u64, i as u64, f as u64);
                    if self.differ_place(other, def, &it, values, seat, at, d) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// One variable or field, `at` its key.
    #[allow(clippy::too_many_arguments)]
    fn differ_place(
        &self,
        other: &Game,
        def: &VarDef,
        subject: &Value,
        (va, vb): (&Value, &Value),
        seat: u8,
        at: u64,
        d: &mut Differences,
    ) -> bool {
        if def.visibility == Visibility::Internal {
            return false;
        }
        let viewer = Viewer::Player(seat);
        // Where an instance is revealed in either position, what shows depends on the values.
        let revealing = self.state.any_revealed() || other.state.any_revealed();
        let (seen_a, seen_b) = match (&def.visible_when, &def.visible_part) {
            // Who may see it follows from its declaration alone.
            (None, None) if !revealing => {
                let v = if visible(self, def, subject, viewer) {
                    Sight::All
                } else {
                    Sight::Nothing
                };
                (v.clone(), v)
            }
            _ => (
                sight(self, def, subject, va, viewer),
                sight(other, def, subject, vb, viewer),
            ),
        };
        if seen_a != seen_b {
            return d.note(at);
        }
        if self.program.veiled(&def.ty) {
            return self.differ_veiled(other, def, subject, (va, vb), &seen_a, seat, at, d);
        }
        if va == vb {
            return false;
        }
        match (va, vb) {
            (Value::List(xs), Value::List(ys)) => {
                if xs.len() != ys.len() && d.note(key(at, LENGTH, 0, 0)) {
                    return true;
                }
                if seen_a == Sight::Nothing {
                    return false;
                }
                for (i, (x, y)) in xs.iter().zip(ys.iter()).enumerate() {
                    if seen_a.shows(i) && !self.reads_same(x, y) && d.note(key(at, i as u64, 0, 0))
                    {
                        return true;
                    }
                }
                false
            }
            _ if seen_a != Sight::All => false,
            _ if self.reads_same(va, vb) => false,
            _ => d.note(at),
        }
    }

    /// [`Game::differ_place`] of a value holding records with fields of their own visibility:
    /// equal values may show different fields, where the fields' conditions read the state.
    #[allow(clippy::too_many_arguments)]
    fn differ_veiled(
        &self,
        other: &Game,
        def: &VarDef,
        subject: &Value,
        (va, vb): (&Value, &Value),
        seen: &Sight,
        seat: u8,
        at: u64,
        d: &mut Differences,
    ) -> bool {
        let viewer = Viewer::Player(seat);
        let owner = veil::owner_of(subject);
        match (seen, va, vb) {
            (Sight::All, ..) => {
                !veil::same_seen((self, va), (other, vb), &def.ty, &owner, viewer) && d.note(at)
            }
            (_, Value::List(xs), Value::List(ys)) => {
                if xs.len() != ys.len() {
                    return d.note(key(at, LENGTH, 0, 0));
                }
                let elem = def.ty.element().unwrap_or(crate::ir::Type::Error);
                seen.shown(xs.len()).any(|i| {
                    !veil::same_seen((self, &xs[i]), (other, &ys[i]), &elem, &owner, viewer)
                        && d.note(key(at, i as u64, 0, 0))
                })
            }
            _ => false,
        }
    }

    /// True if two values read the same to a player: equal, or instances whose `shown as`
    /// names are the same.
    pub(crate) fn reads_same(&self, a: &Value, b: &Value) -> bool {
        if a == b {
            return true;
        }
        match (a, b) {
            (Value::Entity(x), Value::Entity(y)) if x.kind() == y.kind() => {
                match self.state.labels.get(x.kind().index()) {
                    Some(labels) if !labels.is_empty() => {
                        labels.get(x.index() as usize) == labels.get(y.index() as usize)
                    }
                    _ => false,
                }
            }
            (Value::List(xs), Value::List(ys)) => {
                xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| self.reads_same(x, y))
            }
            _ => false,
        }
    }

    /// The instances `seat` sees in the position, with those it read since the last pause:
    /// what it can account for.
    pub(crate) fn instances_in_view(&self, seat: u8, out: &mut Vec<(usize, Value)>) {
        let viewer = Viewer::Player(seat);
        let drawn = self.replay.as_ref().map_or(0, |r| r.chance.drawn.len());
        if let Some(r) = &self.replay {
            out.extend(r.read.instances.iter().cloned());
        }
        // The whole value where the seat sees it all, the elements of the part it sees of a list.
        let mut add = |def: &VarDef, subject: &Value, v: &Value| {
            if def.visibility == Visibility::Internal {
                return;
            }
            // Only the record fields the seat sees, where a record's field has a visibility.
            let owner = veil::owner_of(subject);
            let mut seen = |ty: &crate::ir::Type, x: &Value| {
                veil::for_each_seen(self, x, ty, &owner, viewer, &mut |y| collect(y, drawn, out))
            };
            match (sight(self, def, subject, v, viewer), v) {
                (Sight::All, _) => seen(&def.ty, v),
                (sight @ Sight::Part(..), Value::List(xs)) => {
                    let elem = def.ty.element().unwrap_or(crate::ir::Type::Error);
                    sight.shown(xs.len()).for_each(|i| seen(&elem, &xs[i]));
                }
                _ => {}
            }
        };
        let program = &self.program;
        let state = &self.state;
        for (g, def) in program.globals.iter().enumerate() {
            add(def, &Value::None, &state.globals[g]);
        }
        for p in 0..state.players {
            for (v, def) in program.player_vars.iter().enumerate() {
                add(def, &Value::player(p), state.player_vars.get(p as usize, v));
            }
        }
        for (k, kind) in program.kinds.iter().enumerate().filter(|(_, k)| k.mutable) {
            for i in 0..state.entities[k].len() {
                let it = Value::entity(KindId(k as u32), i as u32);
                if !listed(self, kind, &it) {
                    continue;
                }
                for (f, def) in kind.fields.iter().enumerate() {
                    add(def, &it, state.entities[k].get(i, f));
                }
            }
        }
    }

    /// Forgets what the replay's seat read since the last pause: a new stretch begins.
    pub(crate) fn clear_read(&mut self) {
        if let Some(r) = self.replay.as_mut() {
            r.read.clear();
        }
    }

    /// Notes a log line the replay's seat may read: each value interpolated, by the line's
    /// statement, how often it wrote since the last pause, and the value's place in the line.
    /// `seat_only` is the one seat a `tell` is for.
    pub(super) fn observe_line(
        &mut self,
        text: &crate::ir::Text,
        seat_only: Option<u8>,
        site: crate::diag::Span,
    ) -> super::exec::R<()> {
        let Some(seat) = self.replay.as_ref().map(|r| r.seat) else {
            return Ok(());
        };
        if seat_only.is_some_and(|p| p != seat) {
            return Ok(());
        }
        let mut read = std::mem::take(&mut self.replay.as_mut().expect("a replay").read);
        let line = read.line(key(READ, u64::from(site.file.0), u64::from(site.start), 0));
        // The line was written, whatever it interpolates.
        read.parts.push((key(READ, line, LENGTH, 0), 1));
        let mut result = Ok(());
        for (part, p) in text.parts.iter().enumerate() {
            let at = key(READ, line, part as u64, 0);
            let noted = match p {
                crate::ir::TextPart::Lit(_) => continue,
                crate::ir::TextPart::Expr(e) => {
                    self.eval(e).map(|v| self.note_read(&mut read, at, &v))
                }
                // A conditional or repeated part is noted as the words it renders: what the
                // seat reads, though the instances it names are not noted as accounted for.
                other => self
                    .eval_with(|ev, l| {
                        let mut words = String::new();
                        ev.text_part(other, l, &mut words).map(|()| words)
                    })
                    .map(|words| {
                        read.parts.push((at, super::replay::hash_of(words)));
                    }),
            };
            if let Err(e) = noted {
                result = Err(e);
                break;
            }
        }
        if let Some(r) = self.replay.as_mut() {
            r.read = read;
        }
        result
    }

    /// Notes a choice of a single option, which the game takes without asking: its chooser
    /// reads it, and so does everyone unless it is secret.
    pub(super) fn observe_only_option(&mut self, chooser: u8, secret: bool, value: &Value) {
        let Some(seat) = self.replay.as_ref().map(|r| r.seat) else {
            return;
        };
        let mut read = std::mem::take(&mut self.replay.as_mut().expect("a replay").read);
        let line = read.line(key(READ, u64::MAX, u64::from(chooser), 0));
        let at = key(READ, line, 0, 0);
        if seat == chooser || !secret {
            self.note_read(&mut read, at, value);
        } else {
            read.parts.push((at, 0));
        }
        if let Some(r) = self.replay.as_mut() {
            r.read = read;
        }
    }
}

/// The instances in a value, each noted as seen after `drawn` draws.
fn collect(v: &Value, drawn: usize, out: &mut Vec<(usize, Value)>) {
    match v {
        Value::Entity(_) => out.push((drawn, v.clone())),
        Value::List(xs) => xs.iter().for_each(|x| collect(x, drawn, out)),
        _ => {}
    }
}
