//! Views: the game as one player (or an onlooker) may see it.
//!
//! Invariant: everything a front end shows passes through here; a secret variable is shown to
//! its owner only, a hidden one to nobody, and a pending decision's options only to whoever
//! must decide.

use super::eval::Eval;
use super::{Audience, Game, LogLine, Pending};
use crate::ir::{Value, VarDef, Visibility};
use std::collections::BTreeSet;

/// Who is looking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    /// A seat, 0-based: sees public things and its own secrets.
    Player(u8),
    /// An onlooker: sees public things only.
    Spectator,
    /// The referee: sees everything, every secret and every private line. Only for a game
    /// that is over, or for whoever holds its save (a replay): never at a live table.
    Referee,
}

impl Viewer {
    fn value(self) -> Value {
        match self {
            Viewer::Player(p) => Value::player(p),
            Viewer::Spectator | Viewer::Referee => Value::None,
        }
    }
}

/// Whether `viewer` may see a variable or field whose owner (or instance) is `subject`. An
/// onlooker sees what every seat may see: only what is public.
pub(super) fn visible(game: &Game, def: &VarDef, subject: &Value, viewer: Viewer) -> bool {
    match viewer {
        Viewer::Player(_) => visible_to_seat(game, def, subject, viewer),
        Viewer::Referee => true,
        Viewer::Spectator => {
            (0..game.state.players).all(|p| visible_to_seat(game, def, subject, Viewer::Player(p)))
        }
    }
}

fn visible_to_seat(game: &Game, def: &VarDef, subject: &Value, viewer: Viewer) -> bool {
    // A revealed instance is face up: its fields show with it.
    if game.state.value_revealed(subject) {
        return true;
    }
    let by_default = match def.visibility {
        Visibility::Public => true,
        Visibility::Secret => viewer.value() == *subject,
        Visibility::Hidden => false,
        // Bookkeeping is no secret (search bots know it); views only leave it out.
        Visibility::Internal => return true,
    };
    by_default
        || def.visible_when.as_ref().is_some_and(|f| {
            let mut locals = vec![Value::None; f.locals.max(2)];
            locals[0] = viewer.value();
            locals[1] = subject.clone();
            // A condition that fails to evaluate hides the value rather than leak it.
            Eval::new(&game.program, &game.state)
                .bool(&f.body, &mut locals)
                .unwrap_or(false)
        })
}

/// What a viewer may see of a variable or field: all of it, nothing (of a list, how many it
/// holds), or the positions (0-based) of the list's elements it shows: those of its part
/// (`visible last k`) and those that hold a revealed instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Sight {
    /// The whole value.
    All,
    /// Nothing but, for a list, its length.
    Nothing,
    /// The list's length, and its elements at these positions: a part, and the positions of
    /// revealed instances outside it, in order.
    Part(std::ops::Range<usize>, Vec<usize>),
}

impl Sight {
    /// Whether the viewer reads the element at position `i` (0-based) of the value.
    pub(crate) fn shows(&self, i: usize) -> bool {
        match self {
            Sight::All => true,
            Sight::Nothing => false,
            Sight::Part(r, revealed) => r.contains(&i) || revealed.binary_search(&i).is_ok(),
        }
    }

    /// The positions shown of a list of `len` elements, in order.
    pub(crate) fn shown(&self, len: usize) -> impl Iterator<Item = usize> + '_ {
        (0..len).filter(move |i| self.shows(*i))
    }
}

/// What `viewer` may see of `value`, the value of `def` whose owner (or instance) is `subject`.
/// A shown part is the same for every viewer (the checker proved its count public), and so is
/// a revealed instance, so an onlooker sees them too.
pub(crate) fn sight(
    game: &Game,
    def: &VarDef,
    subject: &Value,
    value: &Value,
    viewer: Viewer,
) -> Sight {
    if visible(game, def, subject, viewer) {
        return Sight::All;
    }
    let state = &game.state;
    let revealing = state.any_revealed();
    if revealing && state.value_revealed(value) {
        return Sight::All;
    }
    let Value::List(xs) = value else {
        return Sight::Nothing;
    };
    let len = xs.len();
    let part = def.visible_part.as_ref().map(|part| {
        let mut locals = vec![Value::None; part.count.locals.max(1)];
        locals[0] = subject.clone();
        // A count that fails to evaluate shows nothing rather than leak.
        let n = Eval::new(&game.program, state)
            .int(&part.count.body, &mut locals)
            .unwrap_or(0)
            .clamp(0, len as i64) as usize;
        match part.end {
            crate::syntax::ast::End::First => 0..n,
            crate::syntax::ast::End::Last => len - n..len,
        }
    });
    // A revealed instance shows wherever it lies, outside the part too.
    let range = part.clone().unwrap_or(0..0);
    let revealed: Vec<usize> = if revealing {
        (0..len)
            .filter(|i| !range.contains(i) && state.value_revealed(&xs[*i]))
            .collect()
    } else {
        Vec::new()
    };
    match part {
        None if revealed.is_empty() => Sight::Nothing,
        _ => Sight::Part(range, revealed),
    }
}

/// Whether views list an instance (`listed when`); a failing condition lists it.
pub(super) fn listed(game: &Game, kind: &crate::ir::KindDef, it: &Value) -> bool {
    kind.listed.as_ref().is_none_or(|f| {
        let mut locals = vec![Value::None; f.locals.max(1)];
        locals[0] = it.clone();
        Eval::new(&game.program, &game.state)
            .bool(&f.body, &mut locals)
            .unwrap_or(true)
    })
}

/// Whether views draw an entry whose `shown when` condition is `cond`, for the owner or
/// instance `subject` (`none` for the game's). The checker proved the condition public, so
/// every viewer draws the same entries; one that cannot be worked out draws the entry, as a
/// failing `listed when` lists its instance.
pub(super) fn drawn(game: &Game, cond: Option<&crate::ir::EndFn>, subject: &Value) -> bool {
    cond.is_none_or(|f| {
        let mut locals = vec![Value::None; f.locals.max(1)];
        locals[0] = subject.clone();
        Eval::new(&game.program, &game.state)
            .bool(&f.body, &mut locals)
            .unwrap_or(true)
    })
}

pub(super) fn render(game: &Game, viewer: Viewer) -> String {
    super::picture::picture(game, viewer).text()
}

/// What the viewer is told about the decision in progress: never another player's options,
/// and a secret prompt only to its owner.
pub(super) fn waiting_line(game: &Game, pending: &Pending, viewer: Viewer) -> String {
    let waiting = game.waiting_on();
    let names: Vec<String> = waiting.iter().map(|p| game.seat_name(*p)).collect();
    let mine = matches!(viewer, Viewer::Player(p) if waiting.contains(&p));
    match pending {
        Pending::Turn(t) => {
            if mine {
                "your turn".to_string()
            } else {
                format!("{}'s turn", game.seat_name(t.player))
            }
        }
        Pending::Choose {
            player,
            secret: false,
            ..
        }
        | Pending::Ask { player, .. } => {
            let prompt = game.prompt(*player).unwrap_or_default();
            format!("waiting for {}: {prompt}", names.join(", "))
        }
        Pending::Choose { .. } | Pending::Secret { .. } => {
            format!("waiting for {} to choose", names.join(", "))
        }
    }
}

/// The texts of the log lines `viewer` may read among those written at index `from` and after.
pub(super) fn log(game: &Game, viewer: Viewer, from: usize) -> Vec<String> {
    log_entries_from(game, viewer, from)
        .into_iter()
        .map(|l| l.text)
        .collect()
}

/// The lines `viewer` may read, each with whether it was written for `viewer` alone.
pub(super) fn log_entries(game: &Game, viewer: Viewer) -> Vec<LogLine> {
    log_entries_from(game, viewer, 0)
}

/// The log lines `viewer` may read among those written at index `from` and after.
pub(super) fn log_entries_from(game: &Game, viewer: Viewer, from: usize) -> Vec<LogLine> {
    game.log
        .get(from..)
        .unwrap_or_default()
        .iter()
        .filter_map(|e| {
            if viewer == Viewer::Referee {
                // The referee reads every version of every line, each said for whom.
                let names = |ps: &[u8]| {
                    ps.iter()
                        .map(|p| game.seat_name(*p))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let text = match &e.audience {
                    Audience::All => e.text.clone(),
                    Audience::Only(ps) => format!("[to {}] {}", names(ps), e.text),
                    Audience::AllBut(ps) => format!("[all but {}] {}", names(ps), e.text),
                };
                return Some(LogLine {
                    text,
                    private: false,
                    announcement: e.announcement,
                });
            }
            let (readable, private) = match (&e.audience, viewer) {
                (_, Viewer::Referee) => (true, false),
                (Audience::All, _) => (true, false),
                (Audience::Only(ps), Viewer::Player(p)) => (ps.contains(&p), true),
                (Audience::Only(_), Viewer::Spectator) => (false, false),
                (Audience::AllBut(ps), Viewer::Player(p)) => (!ps.contains(&p), false),
                (Audience::AllBut(_), Viewer::Spectator) => (true, false),
            };
            readable.then(|| LogLine {
                text: e.text.clone(),
                private,
                announcement: e.announcement,
            })
        })
        .collect()
}

/// The instances `viewer` can see somewhere in the state, and those it cannot see anywhere:
/// for testing that nothing hidden leaks into a view or a log line.
/// Where a value lies: a global, a seat's variable or an instance's field, by index.
pub(super) type Slot = (u8, u32, u32, u32);

/// Every value `viewer` can see now, with where it lies.
pub(super) fn visible_values(game: &Game, viewer: Viewer) -> BTreeSet<(Slot, Value)> {
    let program = &game.program;
    let state = &game.state;
    let mut seen = BTreeSet::new();
    let mut note = |d: &VarDef, subject: &Value, v: &Value, slot: Slot| {
        let sight = sight(game, d, subject, v, viewer);
        // A record's field hidden from the viewer reads `none` here.
        let owner = super::veil::owner_of(subject);
        let v = &super::veil::masked(game, v, &d.ty, &owner, viewer);
        match sight {
            Sight::All => {
                seen.insert((slot, v.clone()));
            }
            Sight::Nothing => {}
            // The elements a part shows, as one list of them with their positions.
            sight @ Sight::Part(..) => {
                let Value::List(xs) = v else { return };
                let shown: Vec<Value> = sight
                    .shown(xs.len())
                    .flat_map(|i| [Value::Int(i as i64), xs[i].clone()])
                    .collect();
                seen.insert((slot, Value::List(shown.into())));
            }
        }
    };
    for (g, (d, v)) in program.globals.iter().zip(&state.globals).enumerate() {
        note(d, &Value::None, v, (0, g as u32, 0, 0));
    }
    for p in 0..state.players {
        let vars = program
            .player_vars
            .iter()
            .zip(state.player_vars.row(p as usize));
        for (i, (d, v)) in vars.enumerate() {
            note(d, &Value::player(p), v, (1, p as u32, i as u32, 0));
        }
    }
    for (k, kind) in program.kinds.iter().enumerate() {
        for (i, fields) in state.entities[k].iter().enumerate() {
            let it = Value::entity(crate::ir::KindId(k as u32), i as u32);
            for (f, (d, v)) in kind.fields.iter().zip(fields).enumerate() {
                note(d, &it, v, (2, k as u32, i as u32, f as u32));
            }
        }
    }
    seen
}

pub(super) fn instances_seen(game: &Game, viewer: Viewer) -> (BTreeSet<Value>, BTreeSet<Value>) {
    let program = &game.program;
    let state = &game.state;
    let mut seen = BTreeSet::new();
    let mut unseen = BTreeSet::new();
    let mut sort = |v: &Value, sight: Sight, ty: &crate::ir::Type, owner: &Value| {
        if game.program.veiled(ty) {
            // Every instance in it is unseen but those in the record fields the viewer sees.
            collect_instances(v, &mut unseen);
            let mut add = |x: &Value| collect_instances(x, &mut seen);
            match (v, &sight) {
                (_, Sight::All) => super::veil::for_each_seen(game, v, ty, owner, viewer, &mut add),
                (Value::List(xs), Sight::Part(..)) => {
                    let elem = ty.element().unwrap_or(crate::ir::Type::Error);
                    for i in sight.shown(xs.len()) {
                        super::veil::for_each_seen(game, &xs[i], &elem, owner, viewer, &mut add);
                    }
                }
                _ => {}
            }
            return;
        }
        sort_plain(v, sight, &mut seen, &mut unseen)
    };
    for (g, v) in program.globals.iter().zip(&state.globals) {
        sort(
            v,
            sight(game, g, &Value::None, v, viewer),
            &g.ty,
            &Value::None,
        );
    }
    for p in 0..state.players {
        for (d, v) in program
            .player_vars
            .iter()
            .zip(state.player_vars.row(p as usize))
        {
            let owner = Value::player(p);
            sort(v, sight(game, d, &owner, v, viewer), &d.ty, &owner);
        }
    }
    for (k, kind) in program.kinds.iter().enumerate() {
        for (i, fields) in state.entities[k].iter().enumerate() {
            let it = Value::entity(crate::ir::KindId(k as u32), i as u32);
            for (f, v) in kind.fields.iter().zip(fields) {
                let shown = visible(game, f, &it, viewer);
                sort(v, sight(game, f, &it, v, viewer), &f.ty, &Value::None);
                // An instance listed in the view with a visible field is itself in plain sight.
                if shown && kind.mutable {
                    sort(&it, Sight::All, &crate::ir::Type::Error, &Value::None);
                }
            }
        }
    }
    let unseen = unseen.difference(&seen).cloned().collect();
    (seen, unseen)
}

/// Sorts the instances in `v` into those `sight` shows and the others.
fn sort_plain(v: &Value, sight: Sight, seen: &mut BTreeSet<Value>, unseen: &mut BTreeSet<Value>) {
    match (v, &sight) {
        (Value::List(xs), Sight::Part(..)) => {
            for (i, x) in xs.iter().enumerate() {
                collect_instances(
                    x,
                    if sight.shows(i) {
                        &mut *seen
                    } else {
                        &mut *unseen
                    },
                );
            }
        }
        _ => collect_instances(v, if sight == Sight::All { seen } else { unseen }),
    }
}

fn collect_instances(v: &Value, into: &mut BTreeSet<Value>) {
    match v {
        Value::Entity(..) => {
            into.insert(v.clone());
        }
        Value::List(xs) => xs.iter().for_each(|x| collect_instances(x, into)),
        _ => {}
    }
}
