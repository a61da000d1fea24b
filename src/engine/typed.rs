//! Values shown by their declared type. A record is kept at run time as a list of its fields,
//! so only its type tells `clue(colour: red, number: 3)` (or the record's `shown as` text) from
//! the list `[red, 3]`; every other value reads as [`super::show`] writes it.

use super::eval::Eval;
use super::{show, State};
use crate::ir::{Program, RecordDef, RecordId, Type, Value};

/// `v`, of type `ty`, as players read it: a record by its fields' names or its `shown as`
/// text, a list of records element by element; anything else as [`show`] writes it.
pub fn show_typed(program: &Program, state: &State, v: &Value, ty: &Type) -> String {
    match (ty, v) {
        (Type::Record(r), Value::List(fields)) => record(program, state, *r, v, fields),
        (Type::List(t), Value::List(xs)) if RecordDef::within(t) => {
            let items: Vec<String> = xs
                .iter()
                .map(|x| show_typed(program, state, x, t))
                .collect();
            format!("[{}]", items.join(", "))
        }
        _ => show(program, state, v),
    }
}

/// A record's value: its `shown as` text, or `name(field: value, ...)` in declaration order.
fn record(program: &Program, state: &State, r: RecordId, v: &Value, fields: &[Value]) -> String {
    let Some(def) = program.records.get(r.index()) else {
        return show(program, state, v);
    };
    if let Some((label, slots)) = &def.label {
        let mut locals = vec![Value::None; (*slots).max(1)];
        locals[0] = v.clone();
        // A label that fails (a field read of `none` in it) falls back on the fields.
        if let Ok(text) = Eval::new(program, state).text(label, &mut locals) {
            return text;
        }
    }
    let parts: Vec<String> = def
        .fields
        .iter()
        .zip(fields)
        .map(|((name, ty), x)| format!("{name}: {}", show_typed(program, state, x, ty)))
        .collect();
    format!("{}({})", def.name, parts.join(", "))
}
