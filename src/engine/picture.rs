//! The game as one viewer may see it, in parts a front end can draw: every variable with what
//! the viewer may know of it, by seat and by instance, and where the game stands.
//!
//! Invariant: the text view ([`Game::view`]) is written from this picture and nothing else, so
//! the REPL and the web table show the same things to the same viewer; what is hidden is
//! decided here once (by `view::sight`), never by a front end.

use super::eval::Eval;
use super::veil::{owner_of, show_seen};
use super::view::{drawn, listed, sight, waiting_line, Sight, Viewer};
use super::{show, Game};
use crate::ir::{MapKey, SectionEntry, SeenBy, ShowDef, Type, Value, VarDef, Visibility};
use std::fmt::Write;

/// What one viewer may see of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    /// The game's title.
    pub title: String,
    /// Whose view it is: `P2's view`, `public view`.
    pub heading: String,
    /// The game's variables the view lists.
    pub globals: Vec<Shown>,
    /// Each seat's variables, in seat order.
    pub seats: Vec<SeatPanel>,
    /// The entries drawn under headings (`section`), section by section.
    pub sections: Vec<SectionPanel>,
    /// The instances of every kind whose fields change, kind by kind.
    pub kinds: Vec<KindPanel>,
    /// Where the game stands.
    pub status: Status,
}

/// One seat's panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatPanel {
    /// The seat's name.
    pub name: String,
    /// The viewer's own seat.
    pub you: bool,
    /// The seat must decide now.
    pub deciding: bool,
    /// The seat is out of the game (`eliminate`).
    pub out: bool,
    /// Its variables.
    pub vars: Vec<Shown>,
}

/// A section's entries, drawn under its heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionPanel {
    /// The heading.
    pub heading: String,
    /// Its game entries, in the order written.
    pub entries: Vec<Shown>,
    /// Its entries of each seat that has one drawn, in seat order: each seat as in
    /// `Picture::seats`, with only these entries.
    pub seats: Vec<SeatPanel>,
    /// `as table`: its lists are drawn side by side, a row per position ([`Shown::cells`]).
    pub table: bool,
}

/// The instances of one kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindPanel {
    /// The kind's name.
    pub name: String,
    /// The instances the view lists, each with its fields.
    pub instances: Vec<InstancePanel>,
    /// How many instances `listed when` leaves out.
    pub unlisted: usize,
    /// The `listed when` condition as written in the rules (its lines joined), so that a view
    /// can say why instances are left out; empty when none is.
    pub listed_when: String,
}

/// One instance and its fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstancePanel {
    /// Its name as players read it.
    pub label: String,
    /// Its fields.
    pub fields: Vec<Shown>,
}

/// A variable or field as the viewer may see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// Its name.
    pub name: String,
    /// Its value as the text view writes it (`7`, `[3H, 9C]`, `4 hidden`, `?`).
    pub text: String,
    /// What it is, for a front end that draws it.
    pub look: Look,
}

/// What a shown value is, for drawing it by its type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Look {
    /// A number, with the bounds it is kept within (`int in lo..hi`): a track.
    Number {
        /// The number.
        value: i64,
        /// Its bounds in this game, if it has any.
        bounds: Option<(i64, i64)>,
    },
    /// A number kept within the faces of a declared die (`int in 1..6` beside `die d6: 1..6`):
    /// a die showing it.
    Die {
        /// The face shown.
        value: i64,
        /// The die's name.
        die: String,
    },
    /// A truth.
    Truth(bool),
    /// A seat.
    Seat(u8),
    /// An instance, an enum value or `none`: a word.
    Word,
    /// A list the viewer may read, element by element as players read them.
    Things(Vec<String>),
    /// A list the viewer may not read: only how many it holds.
    Backs(usize),
    /// A list the viewer may read in part (`visible last k`, a revealed instance): each
    /// element as players read it, or `None` where it is hidden.
    Part(Vec<Option<String>>),
    /// A value the viewer may not see.
    Unknown,
}

impl Shown {
    /// The value as a column of a table, one cell a position: each element as players read it,
    /// or `None` where the viewer may not read it. `None` for the whole column where even how
    /// many it holds is hidden (a `player show` of another seat's secret). A value that is not
    /// a list is one cell.
    fn cells(&self) -> Option<Vec<Option<String>>> {
        match &self.look {
            Look::Things(items) => Some(items.iter().cloned().map(Some).collect()),
            Look::Backs(n) => Some(vec![None; *n]),
            Look::Part(items) => Some(items.clone()),
            Look::Unknown => None,
            _ => Some(vec![Some(self.text.clone())]),
        }
    }
}

/// Entries drawn as a table (`section ... as table`): a column per entry, a row per position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotTable {
    /// The entries' names, a column each.
    pub names: Vec<String>,
    /// A row per position, as many as the longest list holds: each entry's element there as
    /// players read it, `None` where the viewer may not read it, empty past the end of a
    /// shorter list.
    pub rows: Vec<Vec<Option<String>>>,
}

impl SlotTable {
    /// The table of `entries`.
    pub fn of(entries: &[Shown]) -> SlotTable {
        let columns: Vec<Option<Vec<Option<String>>>> = entries.iter().map(Shown::cells).collect();
        let count = columns.iter().flatten().map(Vec::len).max().unwrap_or(0);
        let rows = (0..count)
            .map(|r| {
                columns
                    .iter()
                    .map(|c| match c {
                        None => None,
                        Some(c) => c.get(r).cloned().unwrap_or_else(|| Some(String::new())),
                    })
                    .collect()
            })
            .collect();
        SlotTable {
            names: entries.iter().map(|s| s.name.clone()).collect(),
            rows,
        }
    }

    /// The table as lines of text: `#` and the names, then the rows numbered from 1, a hidden
    /// cell `?`, each column as wide as its widest cell.
    fn lines(&self) -> Vec<String> {
        let mut rows: Vec<Vec<String>> = Vec::with_capacity(self.rows.len() + 1);
        rows.push(
            std::iter::once("#".to_string())
                .chain(self.names.iter().cloned())
                .collect(),
        );
        for (r, row) in self.rows.iter().enumerate() {
            let cells = row
                .iter()
                .map(|c| c.clone().unwrap_or_else(|| "?".to_string()));
            rows.push(std::iter::once((r + 1).to_string()).chain(cells).collect());
        }
        aligned(&rows)
    }
}

/// Rows of cells as lines of text, each column as wide as its widest cell.
fn aligned(rows: &[Vec<String>]) -> Vec<String> {
    let width = |c: usize| {
        rows.iter()
            .filter_map(|r| r.get(c))
            .map(|x| x.chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..rows.first().map_or(0, Vec::len)).map(width).collect();
    rows.iter()
        .map(|r| {
            let cells: Vec<String> = r
                .iter()
                .zip(&widths)
                .map(|(x, w)| format!("{x:<w$}"))
                .collect();
            cells.join("  ").trim_end().to_string()
        })
        .collect()
}

/// Where the game stands for the viewer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// The game is over.
    Over {
        /// Each seat's name and score.
        scores: Vec<(String, i64)>,
        /// The winners' names; empty when nobody wins.
        winners: Vec<String>,
        /// Why the game ended early, if an `end game` said so.
        reason: Option<String>,
    },
    /// A decision is pending: what the viewer is told of it.
    Waiting(String),
    /// Nothing is pending (a game being set up).
    Idle,
}

/// A value as `viewer` may see it: itself, or how many things a hidden list holds.
fn shown(game: &Game, def: &VarDef, v: &Value, subject: &Value, viewer: Viewer) -> Shown {
    let name = def.name.clone();
    let sight = sight(game, def, subject, v, viewer);
    // A record's field hidden from the viewer reads `?` where the viewer sees the record.
    let owner = owner_of(subject);
    // An empty list reads `[]` whoever looks, as a hidden one does.
    if let (Sight::Part(..), Value::List(xs)) = (&sight, v) {
        if xs.is_empty() {
            let look = Look::Things(Vec::new());
            return Shown {
                name,
                text: "[]".to_string(),
                look,
            };
        }
        // The hidden elements read `?`, as a hidden value does; the shown ones their value.
        let elem = def.ty.element().unwrap_or(Type::Error);
        let items: Vec<Option<String>> = xs
            .iter()
            .enumerate()
            .map(|(i, x)| {
                sight
                    .shows(i)
                    .then(|| show_seen(game, x, &elem, &owner, viewer))
            })
            .collect();
        let text = format!("[{}]", part_words(&items).join(", "));
        let look = Look::Part(items);
        return Shown { name, text, look };
    }
    if sight == Sight::All {
        if let Some(entries) = entries(game, &def.ty, v, (&owner, viewer)) {
            let text = entries.join(", ");
            let look = Look::Things(entries);
            return Shown { name, text, look };
        }
        let text = show_seen(game, v, &def.ty, &owner, viewer);
        let look = look(
            game,
            v,
            &def.ty,
            def.bounds_for(game.state.players),
            (&owner, viewer),
        );
        return Shown { name, text, look };
    }
    let (text, look) = match v {
        // How many a hidden list holds is public; an empty one hides nothing.
        Value::List(xs) if xs.is_empty() => ("[]".to_string(), Look::Things(Vec::new())),
        Value::List(xs) => (format!("{} hidden", xs.len()), Look::Backs(xs.len())),
        _ => ("?".to_string(), Look::Unknown),
    };
    Shown { name, text, look }
}

/// A list shown in part, element by element: a shown one as players read it, a hidden one `?`,
/// and a run of more than three hidden ones as how many (`47 hidden`), so that a deck whose
/// top card is shown reads `[47 hidden, 5H]`.
fn part_words(items: &[Option<String>]) -> Vec<String> {
    let mut words = Vec::new();
    let mut at = 0;
    while at < items.len() {
        let run = items[at..].iter().take_while(|x| x.is_none()).count();
        match (&items[at], run) {
            (Some(x), _) => words.push(x.clone()),
            (None, 1..=3) => words.extend(std::iter::repeat_n("?".to_string(), run)),
            (None, _) => words.push(format!("{run} hidden")),
        }
        at += run.max(1);
    }
    words
}

/// A map's entries as players read them, in its keys' order: `red 2` by an enum, `P1 2` by
/// player or `crate-1 2` by a kind, `1: 2` by a range (as a text shows them), and an entry that
/// is a map in brackets, `P1 (red 2, blue 0)`; `None` for a value that is not a map (the run
/// time keeps a map as a list, so only the declared type tells). `seen`: the owner of the
/// value and the viewer, for record fields of its own visibility.
fn entries(game: &Game, ty: &Type, v: &Value, seen: (&Value, Viewer)) -> Option<Vec<String>> {
    let (Type::Map(elem, k), Value::List(xs)) = (ty, v) else {
        return None;
    };
    let value = |x: &Value| match entries(game, elem, x, seen) {
        Some(inner) => Some(format!("({})", inner.join(", "))),
        None if matches!(**elem, Type::Map(..)) => None,
        None => Some(show_seen(game, x, elem, seen.0, seen.1)),
    };
    let keys: Vec<String> = match *k {
        MapKey::Enum(e) => game.program.enums.get(e.index())?.shown.clone(),
        MapKey::Range(lo, hi) => (lo..=hi).map(|k| format!("{k}:")).collect(),
        MapKey::PlayerRange(id) => {
            let (lo, hi) = game
                .program
                .key_ranges
                .get(id as usize)?
                .ends_for(game.state.players);
            (lo..=hi).map(|k| format!("{k}:")).collect()
        }
        MapKey::Player => (0..game.state.players)
            .map(|p| show(&game.program, &game.state, &Value::player(p)))
            .collect(),
        // Every instance, in its kind's order, whatever lies where: the keys tell nothing the
        // rules do not (each instance's name is worked out when the game starts).
        MapKey::Kind(k) => (0..game.state.entities.get(k.index())?.len() as u32)
            .map(|i| show(&game.program, &game.state, &Value::entity(k, i)))
            .collect(),
    };
    if keys.len() != xs.len() {
        return None;
    }
    keys.iter()
        .zip(xs.iter())
        .map(|(k, x)| Some(format!("{k} {}", value(x)?)))
        .collect()
}

/// How a value the viewer may see is drawn, a number kept within `bounds` as a track or a die.
fn look(
    game: &Game,
    v: &Value,
    ty: &Type,
    bounds: Option<(i64, i64)>,
    (owner, viewer): (&Value, Viewer),
) -> Look {
    match v {
        Value::Int(n) => match bounds.and_then(|b| die_between(&game.program, b)) {
            Some(die) => Look::Die { value: *n, die },
            None => Look::Number { value: *n, bounds },
        },
        Value::Bool(b) => Look::Truth(b.get()),
        Value::Player(p) => Look::Seat(p.get()),
        // A record is a word, as an enum value is; a list's elements are shown by their type.
        Value::List(_) if matches!(ty, Type::Record(_)) => Look::Word,
        Value::List(xs) => {
            let elem = ty.element().unwrap_or(Type::Error);
            Look::Things(
                xs.iter()
                    .map(|x| show_seen(game, x, &elem, owner, viewer))
                    .collect(),
            )
        }
        Value::None | Value::Enum(_) | Value::Entity(_) => Look::Word,
    }
}

/// A `show` value as `viewer` may see it: `seat` is the seat a `player show` is for. Who may
/// see it was proved by the checker from what it reads (`check::shows`); it is worked out
/// only for a viewer who may, so a hidden one costs nothing and can tell nothing, not even by
/// failing.
fn derived(game: &Game, def: &ShowDef, seat: Option<u8>, viewer: Viewer) -> Shown {
    let name = def.name.clone();
    let sees = match (def.seen_by, viewer) {
        (SeenBy::Everyone, _) | (SeenBy::Owner, Viewer::Referee) => true,
        (SeenBy::Owner, Viewer::Player(p)) => seat == Some(p),
        (SeenBy::Owner, Viewer::Spectator) => false,
    };
    if !sees {
        let text = "?".to_string();
        return Shown {
            name,
            text,
            look: Look::Unknown,
        };
    }
    let mut locals = vec![Value::None; def.value.locals.max(1)];
    if let Some(p) = seat {
        locals[0] = Value::player(p);
    }
    let mut eval = Eval::new(&game.program, &game.state);
    let value = match &def.text {
        Some(t) => eval.text(t, &mut locals).map(|text| (text, Look::Word)),
        None => eval.expr(&def.value.body, &mut locals).map(|v| {
            let look = look(game, &v, &Type::Error, None, (&Value::None, viewer));
            (show(&game.program, &game.state, &v), look)
        }),
    };
    match value {
        Ok((text, look)) => Shown { name, text, look },
        // What it reads every viewer of it sees, so its failure tells them nothing new.
        Err(e) => Shown {
            name,
            text: format!("(fails: {})", e.code),
            look: Look::Unknown,
        },
    }
}

/// The die whose faces are exactly the numbers `lo..=hi`, if one is declared: a number kept
/// within them is that die's face.
fn die_between(program: &crate::ir::Program, (lo, hi): (i64, i64)) -> Option<String> {
    program.dice.iter().find_map(|d| {
        let mut faces = d.faces.clone();
        faces.sort_unstable();
        faces.dedup();
        let exact = faces.first() == Some(&lo)
            && faces.last() == Some(&hi)
            && faces.len() as i64 == hi - lo + 1;
        exact.then(|| d.name.clone())
    })
}

/// Game variable `i` as `viewer` is drawn it, if it is drawn now.
fn global_entry(game: &Game, i: usize, viewer: Viewer) -> Option<Shown> {
    let g = &game.program.globals[i];
    let v = &game.state.globals[i];
    // A hidden game variable that is not a list is the rules' own bookkeeping: a `?` would say
    // nothing, so it is left out.
    (g.visibility != Visibility::Internal
        && (matches!(v, Value::List(_))
            || g.visibility != Visibility::Hidden
            || g.visible_when.is_some()
            || game.state.value_revealed(v))
        && drawn(game, g.shown_when.as_deref(), &Value::None))
    .then(|| shown(game, g, v, &Value::None, viewer))
}

/// Seat `p`'s variable `i` as `viewer` is drawn it, if it is drawn now.
fn seat_var_entry(game: &Game, i: usize, p: u8, viewer: Viewer) -> Option<Shown> {
    let d = &game.program.player_vars[i];
    let v = game.state.player_vars.row(p as usize).get(i)?;
    (d.visibility != Visibility::Internal
        && drawn(game, d.shown_when.as_deref(), &Value::player(p)))
    .then(|| shown(game, d, v, &Value::player(p), viewer))
}

/// `show` `i` (for seat `seat`, a `player show`) as `viewer` is drawn it, if it is drawn now.
fn show_entry(game: &Game, i: usize, seat: Option<u8>, viewer: Viewer) -> Option<Shown> {
    let s = &game.program.shows[i];
    let subject = seat.map_or(Value::None, Value::player);
    drawn(game, s.shown_when.as_ref(), &subject).then(|| derived(game, s, seat, viewer))
}

/// The game's entries `viewer` is drawn on its flat line: its variables, then its `show`s, each
/// while its `shown when` holds, but those drawn under a section's heading.
fn game_entries(game: &Game, viewer: Viewer) -> Vec<Shown> {
    let program = &game.program;
    let vars = (0..program.globals.len())
        .filter(|&i| !program.in_section(SectionEntry::Global(i)))
        .filter_map(|i| global_entry(game, i, viewer));
    let shows = (0..program.shows.len())
        .filter(|&i| !program.shows[i].per_player && !program.in_section(SectionEntry::Show(i)))
        .filter_map(|i| show_entry(game, i, None, viewer));
    vars.chain(shows).collect()
}

/// Seat `p`'s entries `viewer` is drawn on its flat line: its variables, then its `player
/// show`s, each while its `shown when` holds, but those drawn under a section's heading.
fn seat_entries(game: &Game, p: u8, viewer: Viewer) -> Vec<Shown> {
    let program = &game.program;
    let vars = (0..program.player_vars.len())
        .filter(|&i| !program.in_section(SectionEntry::PlayerVar(i)))
        .filter_map(|i| seat_var_entry(game, i, p, viewer));
    let shows = (0..program.shows.len())
        .filter(|&i| program.shows[i].per_player && !program.in_section(SectionEntry::Show(i)))
        .filter_map(|i| show_entry(game, i, Some(p), viewer));
    vars.chain(shows).collect()
}

/// The sections as `viewer` is drawn them, each in the order written: a section none of whose
/// entries is drawn now is left out, and so is a seat's line that would be empty.
fn section_panels(game: &Game, viewer: Viewer, seats: &[SeatPanel]) -> Vec<SectionPanel> {
    let program = &game.program;
    let mut panels = Vec::new();
    for section in &program.sections {
        let is_seat = |e: &SectionEntry| match e {
            SectionEntry::Global(_) => false,
            SectionEntry::PlayerVar(_) => true,
            SectionEntry::Show(i) => program.shows[*i].per_player,
        };
        let entries: Vec<Shown> = section
            .entries
            .iter()
            .filter(|e| !is_seat(e))
            .filter_map(|e| match *e {
                SectionEntry::Global(i) => global_entry(game, i, viewer),
                SectionEntry::Show(i) => show_entry(game, i, None, viewer),
                SectionEntry::PlayerVar(_) => None,
            })
            .collect();
        let lines: Vec<SeatPanel> = seats
            .iter()
            .enumerate()
            .filter_map(|(p, seat)| {
                let p = p as u8;
                let vars: Vec<Shown> = section
                    .entries
                    .iter()
                    .filter_map(|e| match *e {
                        SectionEntry::PlayerVar(i) => seat_var_entry(game, i, p, viewer),
                        SectionEntry::Show(i) if program.shows[i].per_player => {
                            show_entry(game, i, Some(p), viewer)
                        }
                        _ => None,
                    })
                    .collect();
                (!vars.is_empty()).then(|| SeatPanel {
                    vars,
                    ..seat.clone()
                })
            })
            .collect();
        if !entries.is_empty() || !lines.is_empty() {
            panels.push(SectionPanel {
                heading: section.heading.clone(),
                entries,
                seats: lines,
                table: section.table,
            });
        }
    }
    panels
}

/// The picture of `game` as `viewer` may see it.
pub(super) fn picture(game: &Game, viewer: Viewer) -> Picture {
    let program = &game.program;
    let state = &game.state;
    let heading = match viewer {
        Viewer::Player(p) => format!("{}'s view", game.seat_name(p)),
        Viewer::Spectator => "public view".to_string(),
        Viewer::Referee => "referee's view".to_string(),
    };
    let globals = game_entries(game, viewer);
    let waiting = game.waiting_on();
    let seats: Vec<SeatPanel> = (0..state.players)
        .map(|p| SeatPanel {
            name: game.seat_name(p),
            you: viewer == Viewer::Player(p),
            deciding: waiting.contains(&p),
            out: state.is_out(p),
            vars: seat_entries(game, p, viewer),
        })
        .collect();
    let sections = section_panels(game, viewer, &seats);
    let mut kinds = Vec::new();
    for (k, kind) in program.kinds.iter().enumerate().filter(|(_, k)| k.mutable) {
        let mut panel = KindPanel {
            name: kind.name.clone(),
            instances: Vec::new(),
            unlisted: 0,
            listed_when: String::new(),
        };
        for (i, fields) in state.entities[k].iter().enumerate() {
            let it = Value::entity(crate::ir::KindId(k as u32), i as u32);
            if !listed(game, kind, &it) {
                panel.unlisted += 1;
                continue;
            }
            panel.instances.push(InstancePanel {
                label: show(program, state, &it),
                fields: kind
                    .fields
                    .iter()
                    .zip(fields)
                    .filter(|(f, _)| {
                        f.visibility != Visibility::Internal
                            && drawn(game, f.shown_when.as_deref(), &it)
                    })
                    .map(|(f, v)| shown(game, f, v, &it, viewer))
                    .collect(),
            });
        }
        if let (Some(listed), true) = (&kind.listed, panel.unlisted > 0) {
            let text = program.sources.snippet(listed.body.span);
            panel.listed_when = text.split_whitespace().collect::<Vec<_>>().join(" ");
        }
        kinds.push(panel);
    }
    let status = match (&game.outcome, &game.pending) {
        (Some(o), _) => Status::Over {
            scores: o
                .scores
                .iter()
                .enumerate()
                .map(|(p, s)| (game.seat_name(p as u8), *s))
                .collect(),
            winners: o.winners.iter().map(|p| game.seat_name(*p)).collect(),
            reason: o.reason.clone(),
        },
        (None, Some(pending)) => Status::Waiting(waiting_line(game, pending, viewer)),
        (None, None) => Status::Idle,
    };
    Picture {
        title: program.title.clone(),
        heading,
        globals,
        seats,
        sections,
        kinds,
        status,
    }
}

fn joined(shown: &[Shown]) -> String {
    shown
        .iter()
        .map(|s| format!("{} {}", s.name, s.text))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A seat as the text view names it: `P1 (you)`, `P3 (out)`.
fn seat_title(seat: &SeatPanel) -> String {
    let me = if seat.you { " (you)" } else { "" };
    let gone = if seat.out { " (out)" } else { "" };
    format!("{}{me}{gone}", seat.name)
}

/// A seat's line of the text view: `P1 (you): coins 2 · ...`.
fn seat_line(seat: &SeatPanel) -> String {
    // Every entry of the seat may be drawn under a section's heading instead.
    if seat.vars.is_empty() {
        return seat_title(seat);
    }
    format!("{}: {}", seat_title(seat), joined(&seat.vars))
}

impl SectionPanel {
    /// A section drawn `as table`, as lines of the text view: the game's table, then each
    /// seat's under its name.
    fn table_text(&self, out: &mut String) {
        if !self.entries.is_empty() {
            for line in SlotTable::of(&self.entries).lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        for seat in &self.seats {
            let _ = writeln!(out, "    {}:", seat_title(seat));
            for line in SlotTable::of(&seat.vars).lines() {
                let _ = writeln!(out, "      {line}");
            }
        }
    }
}

impl Picture {
    /// The picture as the text view: what the REPL prints.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{} — {}", self.title, self.heading);
        if !self.globals.is_empty() {
            let _ = writeln!(out, "  {}", joined(&self.globals));
        }
        for seat in &self.seats {
            let _ = writeln!(out, "  {}", seat_line(seat));
        }
        for section in &self.sections {
            let _ = writeln!(out, "  {}:", section.heading);
            if section.table {
                section.table_text(&mut out);
                continue;
            }
            if !section.entries.is_empty() {
                let _ = writeln!(out, "    {}", joined(&section.entries));
            }
            for seat in &section.seats {
                let _ = writeln!(out, "    {}", seat_line(seat));
            }
        }
        for kind in &self.kinds {
            for it in &kind.instances {
                let _ = writeln!(out, "  {}: {}", it.label, joined(&it.fields));
            }
            if kind.unlisted > 0 {
                let _ = writeln!(
                    out,
                    "  (not listed: {} {}, for which `{}` is false)",
                    kind.unlisted, kind.name, kind.listed_when
                );
            }
        }
        match &self.status {
            Status::Over {
                scores, winners, ..
            } => {
                let scores: Vec<String> = scores.iter().map(|(p, s)| format!("{p} {s}")).collect();
                let _ = writeln!(out, "  game over · scores: {}", scores.join(", "));
                let _ = writeln!(
                    out,
                    "  {}",
                    if winners.is_empty() {
                        "nobody wins".to_string()
                    } else {
                        format!("winner: {}", winners.join(", "))
                    }
                );
            }
            Status::Waiting(line) => {
                let _ = writeln!(out, "  {line}");
            }
            Status::Idle => {}
        }
        out
    }
}
