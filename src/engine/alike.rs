//! Choosing among identical items by their name: `tempura` for one of the instances shown
//! `tempura`, `tempura#2`, ... when they are alike to the player choosing.
//!
//! Instances of a kind `shown as` the same text are numbered so that every one can be typed
//! (`tempura#14`). A player who types the shown name alone means any of them; when every
//! instance it could mean is alike (each field hidden in both, or seen in both and equal, and
//! each map by their kind that the player sees holding the same for both), the first in the
//! order of the options is taken, so that a save or a replay takes the same one.
//! When they differ, the move is refused with the labels to choose from.

use super::veil;
use super::view::{sight, Sight, Viewer};
use super::{normalize, open_choice, show, Game, Pending};
use crate::ir::{self, Value};

/// What the shown name alone names among a decision's options.
pub(super) enum Named {
    /// No option: the name is something else.
    Nothing,
    /// The first of the options it names, all alike.
    Alike(usize),
    /// Options that differ, by their labels.
    Different(Vec<String>),
}

impl Game {
    /// The options of `player`'s decision that `input` names when the numbers of instances
    /// shown alike (`#2`) are left out.
    pub(super) fn named_by_shown_name(&self, player: u8, input: &str) -> Named {
        let wanted = normalize(input);
        let found: Vec<(usize, Vec<Value>)> = (0..self.option_count(player))
            .filter_map(|i| {
                let (label, values) = self.loose_option(player, i)?;
                (label == wanted).then_some((i, values))
            })
            .collect();
        let Some((first, model)) = found.first() else {
            return Named::Nothing;
        };
        if found
            .iter()
            .all(|(_, values)| all_alike(self, player, values, model))
        {
            Named::Alike(*first)
        } else {
            Named::Different(
                found
                    .iter()
                    .map(|(i, _)| self.option_label(player, *i).unwrap_or_default())
                    .collect(),
            )
        }
    }

    /// For each option of `seat`'s decision, the first option alike to it: shown the same
    /// but for the numbers of instances shown alike, and alike to `seat` (itself when no
    /// earlier one is). Lists show such options once. Only for lists a person reads: past
    /// [`ALIKE_LIMIT`] options each is its own.
    pub fn first_alike(&self, seat: u8) -> Vec<usize> {
        let n = self.option_count(seat);
        if n > ALIKE_LIMIT {
            return (0..n).collect();
        }
        let mut leaders: Vec<(usize, String, Vec<Value>)> = Vec::new();
        (0..n)
            .map(|i| {
                let Some((label, values)) = self.loose_option(seat, i) else {
                    return i;
                };
                if let Some((first, ..)) = leaders
                    .iter()
                    .find(|(_, l, v)| *l == label && all_alike(self, seat, &values, v))
                {
                    return *first;
                }
                leaders.push((i, label, values));
                i
            })
            .collect()
    }

    /// Option `i` of `player`'s decision as typed with the numbers of instances shown alike
    /// left out, and its values; `None` if it names no such instance.
    fn loose_option(&self, player: u8, i: usize) -> Option<(String, Vec<Value>)> {
        let loose = |v: &Value| normalize(&loose_show(self, v));
        match &self.pending {
            Some(Pending::Turn(t)) if t.player == player && i < t.moves.len() => {
                let (a, args) = t.get(&self.program, i);
                if !args.iter().any(|v| has_numbered(self, v)) {
                    return None;
                }
                let def = &self.program.actions[a.index()];
                let mut label = def.name.to_lowercase();
                for (p, v) in def.params.iter().zip(args) {
                    label.push(' ');
                    label.push_str(&match (p.set, v) {
                        (Some(_), Value::List(xs)) if xs.is_empty() => "none".to_string(),
                        (Some(_), Value::List(xs)) => {
                            xs.iter().map(&loose).collect::<Vec<_>>().join(" ")
                        }
                        _ => loose(v),
                    });
                }
                Some((label, args.to_vec()))
            }
            Some(Pending::Turn(_)) => None,
            _ => {
                let v = self.plain_options(player)?.get(i)?;
                has_numbered(self, v).then(|| (loose(v), vec![v.clone()]))
            }
        }
    }

    /// For each of `options` that `player` chooses several of, its shown name without the
    /// number of an instance shown alike, and whether every option of that name is alike to
    /// `player`; `None` for an option with no such instance. Past [`ALIKE_LIMIT`] options,
    /// none: each is typed by its label.
    pub(super) fn loose_names(&self, player: u8, options: &[Value]) -> Vec<Option<(String, bool)>> {
        if options.len() > ALIKE_LIMIT {
            return vec![None; options.len()];
        }
        let names: Vec<Option<String>> = options
            .iter()
            .map(|v| has_numbered(self, v).then(|| normalize(&loose_show(self, v))))
            .collect();
        names
            .iter()
            .zip(options)
            .map(|(name, v)| {
                let name = name.as_ref()?;
                let alike_to_all = names
                    .iter()
                    .zip(options)
                    .filter(|(other, _)| other.as_ref() == Some(name))
                    .all(|(_, w)| alike(self, player, v, w));
                Some((name.clone(), alike_to_all))
            })
            .collect()
    }

    /// The values a `choose` or a secret choice of one element offers `player`.
    fn plain_options(&self, player: u8) -> Option<&[Value]> {
        match &self.pending {
            Some(Pending::Choose {
                options,
                pick: None,
                player: p,
                ..
            }) if *p == player => Some(&options[..]),
            Some(Pending::Secret { choices, .. }) => open_choice(choices, player)
                .filter(|c| c.pick.is_none())
                .map(|c| &c.options[..]),
            _ => None,
        }
    }
}

/// Why a name that several options differing from one another share names none of them.
pub(super) fn differ(labels: &[String]) -> String {
    format!(
        "it names {} options that differ; type one of {}",
        labels.len(),
        super::moves::listed(labels.iter().map(String::as_str))
    )
}

/// True if `v` is, or holds, an instance named by `shown as`, which other instances may share
/// (the first of them unnumbered).
fn has_numbered(game: &Game, v: &Value) -> bool {
    match v {
        Value::Entity(x) => has_label(game, x.kind()),
        Value::List(xs) => xs.iter().any(|x| has_numbered(game, x)),
        _ => false,
    }
}

/// A value as shown, an instance without the number that tells it from those shown alike.
fn loose_show(game: &Game, v: &Value) -> String {
    let shown = show(&game.program, &game.state, v);
    match v {
        Value::Entity(x) if has_label(game, x.kind()) => match shown.rsplit_once('#') {
            Some((base, n)) if n.parse::<u32>().is_ok() => base.to_string(),
            _ => shown,
        },
        _ => shown,
    }
}

/// True if the instances of kind `k` are named by `shown as`.
fn has_label(game: &Game, k: ir::KindId) -> bool {
    game.state
        .labels
        .get(k.index())
        .is_some_and(|l| !l.is_empty())
}

/// The most options compared for [`Game::first_alike`]: every pair is compared.
pub const ALIKE_LIMIT: usize = 2000;

/// True if `xs` and `ys` are alike value by value.
fn all_alike(game: &Game, player: u8, xs: &[Value], ys: &[Value]) -> bool {
    xs.len() == ys.len() && xs.iter().zip(ys).all(|(a, b)| alike(game, player, a, b))
}

/// True if `a` and `b` are the same value, or instances of one kind every field of which looks
/// the same to `player` ([`seen_alike`]; lists: element by element).
fn alike(game: &Game, player: u8, a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Entity(x), Value::Entity(y)) if x.kind() == y.kind() => {
            let k = x.kind().index();
            let table = &game.state.entities[k];
            let fields = &game.program.kinds[k].fields;
            let viewer = Viewer::Player(player);
            fields.iter().enumerate().all(|(f, def)| {
                let (u, v) = (
                    &table.row(x.index() as usize)[f],
                    &table.row(y.index() as usize)[f],
                );
                if game.program.veiled(&def.ty) {
                    // A record's field hidden from the viewer tells two instances apart no more
                    // than the view does.
                    let m = |x: &Value| veil::masked(game, x, &def.ty, &Value::None, viewer);
                    return seen_alike(
                        &sight(game, def, a, u, viewer),
                        &m(u),
                        &sight(game, def, b, v, viewer),
                        &m(v),
                    );
                }
                seen_alike(
                    &sight(game, def, a, u, viewer),
                    u,
                    &sight(game, def, b, v, viewer),
                    v,
                )
            }) && entries_alike(
                game,
                viewer,
                x.kind(),
                x.index() as usize,
                y.index() as usize,
            )
        }
        (Value::List(xs), Value::List(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(ys.iter())
                    .all(|(x, y)| alike(game, player, x, y))
        }
        _ => a == b,
    }
}

/// True if every map by kind `k` (`int by card`) that `viewer` sees holds the same entries for
/// instances `x` and `y` (0-based): a map by a kind is a field of each instance kept apart, so
/// two instances alike in every field differ where such a map tells them apart. A map the
/// viewer does not see tells nothing, and is passed over.
fn entries_alike(game: &Game, viewer: Viewer, k: ir::KindId, x: usize, y: usize) -> bool {
    let program = &game.program;
    let state = &game.state;
    let keyed = |def: &ir::VarDef| keyed_by(&def.ty, k);
    let globals = program
        .globals
        .iter()
        .enumerate()
        .filter(|(_, def)| keyed(def))
        .map(|(g, def)| (def, Value::None, &state.globals[g]));
    let per_player = program
        .player_vars
        .iter()
        .enumerate()
        .filter(|(_, def)| keyed(def))
        .flat_map(|(v, def)| {
            (0..state.players)
                .map(move |p| (def, Value::player(p), state.player_vars.get(p as usize, v)))
        });
    globals.chain(per_player).all(|(def, subject, value)| {
        let seen = sight(game, def, &subject, value, viewer);
        match (&seen, &def.ty, value) {
            (Sight::All, ..) => same_entries(&def.ty, value, k, x, y),
            // Seen in part: the two entries as `seen_alike` compares a list's elements.
            (Sight::Part(..), ir::Type::Map(_, ir::MapKey::Kind(j)), Value::List(xs))
                if *j == k =>
            {
                seen.shows(x) == seen.shows(y) && (!seen.shows(x) || xs.get(x) == xs.get(y))
            }
            _ => true,
        }
    })
}

/// Whether a value of type `ty` is or holds a map by kind `k`.
fn keyed_by(ty: &ir::Type, k: ir::KindId) -> bool {
    match ty {
        ir::Type::Map(_, ir::MapKey::Kind(j)) if *j == k => true,
        ir::Type::Map(elem, _) => keyed_by(elem, k),
        _ => false,
    }
}

/// Whether `v`, of type `ty`, holds the same at keys `x` and `y` of each map by kind `k` in it
/// (`int by card by player`: in each player's map).
fn same_entries(ty: &ir::Type, v: &Value, k: ir::KindId, x: usize, y: usize) -> bool {
    match (ty, v) {
        (ir::Type::Map(_, ir::MapKey::Kind(j)), Value::List(xs)) if *j == k => {
            xs.get(x) == xs.get(y)
        }
        (ir::Type::Map(elem, _), Value::List(xs)) => {
            xs.iter().all(|e| same_entries(elem, e, k, x, y))
        }
        _ => true,
    }
}

/// True if two values of one field look the same to a viewer who sees them as `sa` and `sb`:
/// both hidden, or seen and equal where seen (a list: as long, shown at the same positions and
/// equal there). A value seen beside a hidden one differs from it whatever the hidden one
/// holds: comparing them would tell it (a card face up beside face-down ones, by `reveal` or
/// `visible when`).
fn seen_alike(sa: &Sight, u: &Value, sb: &Sight, v: &Value) -> bool {
    match (sa, sb, u, v) {
        (Sight::Nothing, Sight::Nothing, ..) => true,
        (Sight::All, Sight::All, ..) => u == v,
        (_, _, Value::List(xs), Value::List(ys)) => {
            xs.len() == ys.len()
                && (0..xs.len())
                    .all(|i| sa.shows(i) == sb.shows(i) && (!sa.shows(i) || xs[i] == ys[i]))
        }
        _ => false,
    }
}
