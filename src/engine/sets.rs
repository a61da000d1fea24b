//! Action parameters that are a set of distinct values (`cs: exactly 3 of gem`): every set a
//! parameter may take, built once a game as lists so that listing moves builds nothing, and
//! the labels of such an argument, typed in any order.

use super::exec::{err, R};
use super::moves::MAX_MOVES;
use super::{normalize, show, State};
use crate::ir::{self, List, Value};

/// Every set of every set parameter, by action then parameter (empty for other parameters): for
/// each size from the fewest to the most, the combinations of the element domain's values in
/// their order, the earlier values first (`[R, K]`, `[R, W]`, `[K, W]`).
pub(super) fn all_sets(
    program: &ir::Program,
    seats: &List,
    instances: &[List],
    enum_values: &[List],
) -> R<Vec<Vec<Vec<Value>>>> {
    program
        .actions
        .iter()
        .map(|def| {
            def.params
                .iter()
                .map(|p| {
                    let Some((lo, hi)) = p.set else {
                        return Ok(Vec::new());
                    };
                    let elements: Vec<Value> = match (&p.ty, p.bounds) {
                        (ir::Type::List(t), bounds) => match (&**t, bounds) {
                            (ir::Type::Player, _) => seats.iter().cloned().collect(),
                            (ir::Type::Bool, _) => vec![Value::bool(true), Value::bool(false)],
                            (ir::Type::Enum(e), _) => enum_values[e.index()].iter().cloned().collect(),
                            (ir::Type::Entity(k), _) => instances[k.index()].iter().cloned().collect(),
                            (ir::Type::Int, Some((a, b))) => (a..=b).map(Value::Int).collect(),
                            _ => Vec::new(),
                        },
                        _ => Vec::new(),
                    };
                    let n = elements.len();
                    let hi = (hi as usize).min(n);
                    let count = crate::check::combinations(n as i128, lo as i128, hi as i128);
                    if count > MAX_MOVES as i128 {
                        return Err(err(
                            "move-limit",
                            format!(
                                "`{}` of `{}` would take {count} sets of {n} values, more than {MAX_MOVES}",
                                p.name, def.name
                            ),
                            def.span,
                            "take fewer elements, or choose inside the action with `choose exactly k of`",
                        ));
                    }
                    let mut sets = Vec::with_capacity(count as usize);
                    for size in lo as usize..=hi {
                        combinations(n, size, |picked| {
                            sets.push(Value::List(
                                picked.iter().map(|&i| elements[i].clone()).collect(),
                            ));
                        });
                    }
                    Ok(sets)
                })
                .collect()
        })
        .collect()
}

/// Calls `each` with every `k` of the indices `0..n`, ascending, in lexicographic order.
fn combinations(n: usize, k: usize, mut each: impl FnMut(&[usize])) {
    if k > n {
        return;
    }
    let mut picked: Vec<usize> = (0..k).collect();
    loop {
        each(&picked);
        // The last index that can still move right, moved, and those after it close behind.
        let Some(i) = (0..k).rev().find(|&i| picked[i] < n - k + i) else {
            return;
        };
        picked[i] += 1;
        for j in i + 1..k {
            picked[j] = picked[j - 1] + 1;
        }
    }
}

/// A set argument as typed and labelled: its elements' names, apart (`R K W`), or `none`.
pub(super) fn show_set(program: &ir::Program, state: &State, v: &Value) -> String {
    match v {
        Value::List(xs) if xs.is_empty() => "none".to_string(),
        Value::List(xs) => xs
            .iter()
            .map(|x| show(program, state, x))
            .collect::<Vec<_>>()
            .join(" "),
        other => show(program, state, other),
    }
}

/// An argument as its move's label shows it.
pub(super) fn show_arg(
    program: &ir::Program,
    state: &State,
    param: &ir::ActionParam,
    v: &Value,
) -> String {
    if param.set.is_some() {
        show_set(program, state, v)
    } else {
        show(program, state, v)
    }
}

/// True if `typed` names the move of `def` with `args`, a set argument's elements in any order
/// (`take3 W R K` for `take3 R K W`); commas and brackets may be typed, as for a choice of
/// several. Other arguments are compared as labelled.
pub(super) fn typed_in_any_order(
    program: &ir::Program,
    state: &State,
    def: &ir::ActionDef,
    args: &[Value],
    typed: &str,
) -> bool {
    if def.params.iter().all(|p| p.set.is_none()) {
        return false;
    }
    let cleaned = typed.replace([',', '[', ']'], " ");
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    let Some((first, mut rest)) = words.split_first() else {
        return false;
    };
    if !first.eq_ignore_ascii_case(&def.name) {
        return false;
    }
    for (p, v) in def.params.iter().zip(args) {
        let Some(after) = (match (p.set, v) {
            (Some(_), Value::List(xs)) => {
                let mut names: Vec<String> = xs
                    .iter()
                    .map(|x| normalize(&show(program, state, x)))
                    .collect();
                if names.is_empty() {
                    names.push("none".to_string());
                }
                take_any_order(rest, &names, &mut vec![false; names.len()])
            }
            _ => take_words(rest, &normalize(&show(program, state, v))),
        }) else {
            return false;
        };
        rest = after;
    }
    rest.is_empty()
}

/// The words after `label`'s, if `words` start with them.
fn take_words<'a, 'w>(words: &'a [&'w str], label: &str) -> Option<&'a [&'w str]> {
    let n = label.split(' ').count();
    let head = words.get(..n)?;
    (normalize(&head.join(" ")) == label).then(|| &words[n..])
}

/// The words after every one of `names`, if `words` start with them in some order (a name that
/// is several words is taken whole), each name not yet `used` once.
fn take_any_order<'a, 'w>(
    words: &'a [&'w str],
    names: &[String],
    used: &mut [bool],
) -> Option<&'a [&'w str]> {
    if used.iter().all(|u| *u) {
        return Some(words);
    }
    for i in 0..names.len() {
        if used[i] {
            continue;
        }
        if let Some(after) = take_words(words, &names[i]) {
            used[i] = true;
            if let Some(rest) = take_any_order(after, names, used) {
                return Some(rest);
            }
            used[i] = false;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::combinations;

    #[test]
    fn combinations_come_in_order_each_once() {
        let mut seen = Vec::new();
        combinations(4, 2, |c| seen.push(c.to_vec()));
        assert_eq!(
            seen,
            [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]].map(|c| c.to_vec())
        );
        let mut none = 0;
        combinations(2, 3, |_| none += 1);
        assert_eq!(none, 0);
        let mut empty = Vec::new();
        combinations(3, 0, |c| empty.push(c.len()));
        assert_eq!(empty, [0]);
    }
}
