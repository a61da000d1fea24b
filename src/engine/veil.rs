//! Record fields with a visibility of their own (`hidden card: card visible when viewer !=
//! owner`): what a viewer reads of a value that holds such records, where it sees the value.
//!
//! Invariant: a field is seen only by a viewer who sees the value holding the record (decided
//! by `view::sight`) and whom the field's own visibility admits; every reader of a seat's view
//! (the picture, the comparison of imagined games, the redeal of hidden values) asks here.

use super::eval::Eval;
use super::typed::show_typed;
use super::view::Viewer;
use super::{show, Game};
use crate::ir::{FieldVeil, Type, Value, Visibility};

/// Whether `viewer` may see a field with visibility `veil` of the record `record`, held in a
/// variable of the seat `owner` (`none` elsewhere). An onlooker sees what every seat may see.
fn field_seen(
    game: &Game,
    veil: &FieldVeil,
    record: &Value,
    owner: &Value,
    viewer: Viewer,
) -> bool {
    match viewer {
        Viewer::Referee => true,
        Viewer::Player(p) => seen_by_seat(game, veil, record, owner, p),
        Viewer::Spectator => {
            (0..game.state.players).all(|p| seen_by_seat(game, veil, record, owner, p))
        }
    }
}

fn seen_by_seat(game: &Game, veil: &FieldVeil, record: &Value, owner: &Value, seat: u8) -> bool {
    let viewer = Value::player(seat);
    let by_default = match veil.visibility {
        Visibility::Public => true,
        Visibility::Secret => *owner == viewer,
        Visibility::Hidden | Visibility::Internal => false,
    };
    by_default
        || veil.visible_when.as_ref().is_some_and(|f| {
            let mut locals = vec![Value::None; f.locals.max(3)];
            locals[0] = viewer;
            locals[1] = owner.clone();
            locals[2] = record.clone();
            // A condition that fails to evaluate hides the field rather than leak it.
            Eval::new(&game.program, &game.state)
                .bool(&f.body, &mut locals)
                .unwrap_or(false)
        })
}

/// The owner a field's visibility reads for a value held by `subject`: the seat of a seat's
/// variable, `none` for a game variable or an instance's field.
pub(crate) fn owner_of(subject: &Value) -> Value {
    match subject {
        Value::Player(_) => subject.clone(),
        _ => Value::None,
    }
}

/// The veil of field `i` of the record type `ty`, if it has one.
fn veil_of<'g>(game: &'g Game, ty: &Type, i: usize) -> Option<&'g FieldVeil> {
    let Type::Record(r) = ty else { return None };
    game.program.records.get(r.index())?.veils.get(i)?.as_ref()
}

/// The type of field `i` of the record type `ty`.
fn field_type(game: &Game, ty: &Type, i: usize) -> Type {
    match ty {
        Type::Record(r) => game
            .program
            .records
            .get(r.index())
            .and_then(|d| d.fields.get(i))
            .map_or(Type::Error, |f| f.1.clone()),
        _ => Type::Error,
    }
}

/// Whether `viewer` sees field `i` (holding `x`) of the record `record` of type `ty`, held by
/// `owner`: a field without a visibility of its own, one its visibility admits the viewer to,
/// or a revealed instance, which shows wherever it lies.
fn shows_field(
    game: &Game,
    ty: &Type,
    i: usize,
    (record, x): (&Value, &Value),
    owner: &Value,
    viewer: Viewer,
) -> bool {
    veil_of(game, ty, i).is_none_or(|veil| {
        field_seen(game, veil, record, owner, viewer)
            || (game.state.any_revealed() && game.state.value_revealed(x))
    })
}

/// `v`, of type `ty`, as `viewer` reads it, held by `owner`: as [`show_typed`] writes it, with
/// each field the viewer may not see written `?`. A record with such a field is written by
/// its fields, not its `shown as` text, which may read the field.
pub(crate) fn show_seen(
    game: &Game,
    v: &Value,
    ty: &Type,
    owner: &Value,
    viewer: Viewer,
) -> String {
    if !game.program.veiled(ty) {
        return show_typed(&game.program, &game.state, v, ty);
    }
    match (ty, v) {
        (Type::Record(r), Value::List(fields)) => {
            let masked = (0..fields.len())
                .any(|i| !shows_field(game, ty, i, (v, &fields[i]), owner, viewer));
            let nested = (0..fields.len()).any(|i| game.program.veiled(&field_type(game, ty, i)));
            if !masked && !nested {
                return show_typed(&game.program, &game.state, v, ty);
            }
            let Some(def) = game.program.records.get(r.index()) else {
                return show(&game.program, &game.state, v);
            };
            let parts: Vec<String> = fields
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    let name = def.fields.get(i).map_or("?", |f| f.0.as_str());
                    if shows_field(game, ty, i, (v, x), owner, viewer) {
                        let t = field_type(game, ty, i);
                        format!("{name}: {}", show_seen(game, x, &t, owner, viewer))
                    } else {
                        format!("{name}: ?")
                    }
                })
                .collect();
            format!("{}({})", def.name, parts.join(", "))
        }
        (Type::List(t) | Type::Map(t, _), Value::List(xs)) => {
            let items: Vec<String> = xs
                .iter()
                .map(|x| show_seen(game, x, t, owner, viewer))
                .collect();
            format!("[{}]", items.join(", "))
        }
        _ => show_typed(&game.program, &game.state, v, ty),
    }
}

/// Whether `viewer` reads `a` in game `ga` as it reads `b` in game `gb` (two positions of one
/// game), both of type `ty` and held by `owner`: the same fields seen, and those read the same.
pub(crate) fn same_seen(
    (ga, a): (&Game, &Value),
    (gb, b): (&Game, &Value),
    ty: &Type,
    owner: &Value,
    viewer: Viewer,
) -> bool {
    if !ga.program.veiled(ty) {
        return ga.reads_same(a, b);
    }
    match (ty, a, b) {
        (Type::Record(_), Value::List(xs), Value::List(ys)) if xs.len() == ys.len() => {
            (0..xs.len()).all(|i| {
                let seen = shows_field(ga, ty, i, (a, &xs[i]), owner, viewer);
                if seen != shows_field(gb, ty, i, (b, &ys[i]), owner, viewer) {
                    return false;
                }
                if !seen {
                    return true;
                }
                let t = field_type(ga, ty, i);
                same_seen((ga, &xs[i]), (gb, &ys[i]), &t, owner, viewer)
            })
        }
        (Type::List(t) | Type::Map(t, _), Value::List(xs), Value::List(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(ys.iter())
                    .all(|(x, y)| same_seen((ga, x), (gb, y), t, owner, viewer))
        }
        _ => ga.reads_same(a, b),
    }
}

/// Calls `f` on each part of `v` (of type `ty`, held by `owner`) that `viewer` sees, whole:
/// `v` itself where it holds no field hidden from the viewer.
pub(crate) fn for_each_seen(
    game: &Game,
    v: &Value,
    ty: &Type,
    owner: &Value,
    viewer: Viewer,
    f: &mut dyn FnMut(&Value),
) {
    if !game.program.veiled(ty) {
        return f(v);
    }
    match (ty, v) {
        (Type::Record(_), Value::List(fields)) => {
            for (i, x) in fields.iter().enumerate() {
                if shows_field(game, ty, i, (v, x), owner, viewer) {
                    for_each_seen(game, x, &field_type(game, ty, i), owner, viewer, f);
                }
            }
        }
        (Type::List(t) | Type::Map(t, _), Value::List(xs)) => {
            for x in xs.iter() {
                for_each_seen(game, x, t, owner, viewer, f);
            }
        }
        _ => f(v),
    }
}

/// `v` with each field `viewer` may not see replaced by `none`, for comparing what two views
/// show where the fields seen are the same.
pub(crate) fn masked(game: &Game, v: &Value, ty: &Type, owner: &Value, viewer: Viewer) -> Value {
    if !game.program.veiled(ty) {
        return v.clone();
    }
    match (ty, v) {
        (Type::Record(_), Value::List(fields)) => Value::List(
            fields
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    if shows_field(game, ty, i, (v, x), owner, viewer) {
                        masked(game, x, &field_type(game, ty, i), owner, viewer)
                    } else {
                        Value::None
                    }
                })
                .collect::<Vec<_>>()
                .into(),
        ),
        (Type::List(t) | Type::Map(t, _), Value::List(xs)) => Value::List(
            xs.iter()
                .map(|x| masked(game, x, t, owner, viewer))
                .collect::<Vec<_>>()
                .into(),
        ),
        _ => v.clone(),
    }
}

/// The positions inside `v` (of type `ty`, held by `owner`) of every value `viewer` may not
/// see, as paths of positions from `v` (each at most [`crate::ir::MAX_PATH`] deep): a hidden
/// field's value, or each element of a hidden field's list. `at` is the path to `v`.
pub(crate) fn hidden_paths(
    game: &Game,
    v: &Value,
    ty: &Type,
    owner: &Value,
    viewer: Viewer,
    at: &mut Vec<u32>,
    out: &mut Vec<Vec<u32>>,
) {
    if !game.program.veiled(ty) || at.len() >= crate::ir::MAX_PATH {
        return;
    }
    match (ty, v) {
        (Type::Record(_), Value::List(fields)) => {
            for (i, x) in fields.iter().enumerate() {
                at.push(i as u32);
                let t = field_type(game, ty, i);
                if shows_field(game, ty, i, (v, x), owner, viewer) {
                    hidden_paths(game, x, &t, owner, viewer, at, out);
                } else {
                    all_paths(x, at, out);
                }
                at.pop();
            }
        }
        (Type::List(t) | Type::Map(t, _), Value::List(xs)) => {
            for (i, x) in xs.iter().enumerate() {
                at.push(i as u32);
                hidden_paths(game, x, t, owner, viewer, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

/// The path of `v` if it is one value, or of each value inside it if it is a list or a record
/// (a hidden list keeps its length, as a hidden variable's does).
pub(crate) fn all_paths(v: &Value, at: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
    match v {
        Value::List(xs) if at.len() < crate::ir::MAX_PATH => {
            for (i, x) in xs.iter().enumerate() {
                at.push(i as u32);
                all_paths(x, at, out);
                at.pop();
            }
        }
        _ => out.push(at.clone()),
    }
}
