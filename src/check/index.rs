//! What the checker learns about names, kept for editors: every declaration it accepts and
//! every use it resolves, each with its span.
//!
//! Recorded only when asked ([`super::check_indexed`]); a plain check pays nothing.

use super::scope::Symbol;
use crate::diag::{FileId, Span};
use crate::ir::{self, Type};
use std::collections::HashMap;

/// What sort of thing a declared name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NameKind {
    /// `var`: one value for the game.
    Var,
    /// `player var`: one value per player.
    PlayerVar,
    /// `enum`.
    Enum,
    /// A value of an enum.
    EnumValue,
    /// `kind`.
    Kind,
    /// `record`.
    Record,
    /// A named instance of a kind (`kind company named a, b`).
    Instance,
    /// A field of a kind.
    Field,
    /// `die`.
    Die,
    /// `table`.
    Table,
    /// `def`.
    Def,
    /// `effect`.
    Effect,
    /// `phase`.
    Phase,
    /// `action`.
    Action,
    /// A parameter of a def, effect, action or score.
    Parameter,
    /// A name bound in a body: `let`, `for`, a comprehension, `secretly`.
    Local,
}

impl NameKind {
    /// How a designer would call it.
    pub fn describe(self) -> &'static str {
        match self {
            NameKind::Var => "variable",
            NameKind::PlayerVar => "player variable",
            NameKind::Enum => "enum",
            NameKind::EnumValue => "enum value",
            NameKind::Kind => "kind",
            NameKind::Record => "record",
            NameKind::Instance => "instance",
            NameKind::Field => "field",
            NameKind::Die => "die",
            NameKind::Table => "table",
            NameKind::Def => "def",
            NameKind::Effect => "effect",
            NameKind::Phase => "phase",
            NameKind::Action => "action",
            NameKind::Parameter => "parameter",
            NameKind::Local => "local",
        }
    }

    /// Declared at the top level of a file (not inside a body or a kind).
    pub fn is_top_level(self) -> bool {
        !matches!(
            self,
            NameKind::Parameter | NameKind::Local | NameKind::Field | NameKind::EnumValue
        )
    }
}

/// One declared name.
#[derive(Debug, Clone)]
pub struct NameDecl {
    /// The name as written.
    pub name: String,
    /// What it declares.
    pub kind: NameKind,
    /// Where the name is written in its declaration.
    pub span: Span,
    /// Its type or signature, as a designer writes it (`int`, `list of card`, `(p: player): int`).
    pub detail: String,
    /// The enum of a value, the kind of a field or instance.
    pub container: Option<String>,
}

/// Every declaration the checker accepted and every use it resolved to one.
#[derive(Debug, Clone, Default)]
pub struct NameIndex {
    /// The declarations, in the order they were met.
    pub decls: Vec<NameDecl>,
    /// Each use: where it is written, and the index of its declaration in `decls`.
    pub uses: Vec<(Span, usize)>,
}

impl NameIndex {
    /// The declaration of the name written at `offset` in `file`: a use of it, or its own name.
    pub fn at(&self, file: FileId, offset: usize) -> Option<usize> {
        let hit =
            |s: &Span| s.file == file && (s.start as usize) <= offset && offset <= s.end as usize;
        self.uses
            .iter()
            .find(|(s, _)| hit(s))
            .map(|(_, d)| *d)
            .or_else(|| self.decls.iter().position(|d| hit(&d.span)))
    }

    /// Where a declaration's name is written: the declaration first, then every use.
    pub fn occurrences(&self, decl: usize) -> Vec<Span> {
        let mut out: Vec<Span> = self.decls.get(decl).map(|d| d.span).into_iter().collect();
        out.extend(
            self.uses
                .iter()
                .filter(|(_, d)| *d == decl)
                .map(|(s, _)| *s),
        );
        out.sort();
        out.dedup();
        out
    }
}

/// What a declaration will say about itself once every type is known.
pub(crate) enum Pending {
    Symbol(Symbol),
    Field(ir::KindId, usize),
    RecordField(ir::RecordId, usize),
    Local(NameKind, Type),
}

/// The index under construction: declarations by the span of their name.
#[derive(Default)]
pub(crate) struct Builder {
    decls: Vec<(String, Span, Pending)>,
    by_span: HashMap<Span, usize>,
    uses: Vec<(Span, usize)>,
}

impl Builder {
    /// A declaration, unless one was already recorded at this span.
    pub(crate) fn declare(&mut self, name: &str, span: Span, what: Pending) {
        if self.by_span.contains_key(&span) {
            return;
        }
        self.by_span.insert(span, self.decls.len());
        self.decls.push((name.to_string(), span, what));
    }

    /// A use of the declaration whose name is at `decl`, if that declares `name`.
    pub(crate) fn use_at(&mut self, at: Span, name: &str, decl: Span) {
        if let Some(&i) = self.by_span.get(&decl) {
            if self.decls[i].0 == name && at != decl {
                self.uses.push((at, i));
            }
        }
    }

    /// The finished index, with types read from the program.
    pub(crate) fn finish(
        self,
        program: &ir::Program,
        def_sigs: &[(Vec<Type>, Type)],
        proc_sigs: &[Vec<Type>],
    ) -> NameIndex {
        let ty = |t: &Type| type_text(program, t);
        let params = |types: &[Type]| types.iter().map(&ty).collect::<Vec<_>>().join(", ");
        let decls = self
            .decls
            .into_iter()
            .map(|(name, span, what)| {
                let (kind, detail, container) = match what {
                    Pending::Symbol(sym) => {
                        symbol_detail(program, sym, def_sigs, proc_sigs, &ty, &params)
                    }
                    Pending::Field(k, i) => {
                        let kind = program.kinds.get(k.index());
                        let detail = kind
                            .and_then(|kd| kd.fields.get(i))
                            .map_or(String::new(), |f| ty(&f.ty));
                        (NameKind::Field, detail, kind.map(|kd| kd.name.clone()))
                    }
                    Pending::RecordField(r, i) => {
                        let record = program.records.get(r.index());
                        let detail = record
                            .and_then(|rd| rd.fields.get(i))
                            .map_or(String::new(), |f| ty(&f.1));
                        (NameKind::Field, detail, record.map(|rd| rd.name.clone()))
                    }
                    Pending::Local(kind, t) => (kind, ty(&t), None),
                };
                NameDecl {
                    name,
                    kind,
                    span,
                    detail,
                    container,
                }
            })
            .collect();
        NameIndex {
            decls,
            uses: self.uses,
        }
    }
}

fn symbol_detail(
    program: &ir::Program,
    sym: Symbol,
    def_sigs: &[(Vec<Type>, Type)],
    proc_sigs: &[Vec<Type>],
    ty: &dyn Fn(&Type) -> String,
    params: &dyn Fn(&[Type]) -> String,
) -> (NameKind, String, Option<String>) {
    let var = |v: Option<&ir::VarDef>| v.map_or(String::new(), |v| ty(&v.ty));
    match sym {
        Symbol::Global(id) => (NameKind::Var, var(program.globals.get(id.index())), None),
        Symbol::PlayerVar(id) => (
            NameKind::PlayerVar,
            var(program.player_vars.get(id.index())),
            None,
        ),
        Symbol::Enum(id) => (NameKind::Enum, ty(&Type::Enum(id)), None),
        Symbol::EnumValue(id, _) => (
            NameKind::EnumValue,
            ty(&Type::Enum(id)),
            program.enums.get(id.index()).map(|e| e.name.clone()),
        ),
        Symbol::Kind(id) => (NameKind::Kind, ty(&Type::Entity(id)), None),
        Symbol::Record(id) => (NameKind::Record, ty(&Type::Record(id)), None),
        Symbol::Instance(id, _) => (
            NameKind::Instance,
            ty(&Type::Entity(id)),
            program.kinds.get(id.index()).map(|k| k.name.clone()),
        ),
        Symbol::Die(id) => {
            let faces = program.dice.get(id.index()).map_or(String::new(), |d| {
                let faces: Vec<String> = d.faces.iter().map(i64::to_string).collect();
                format!("faces {}", faces.join(", "))
            });
            (NameKind::Die, faces, None)
        }
        Symbol::Def(id) => {
            let detail = def_sigs.get(id.index()).map_or(String::new(), |(p, r)| {
                format!("({}): {}", params(p), ty(r))
            });
            (NameKind::Def, detail, None)
        }
        Symbol::Table(id) => {
            let detail = program.tables.get(id.index()).map_or(String::new(), |t| {
                let columns: Vec<String> = t
                    .columns
                    .iter()
                    .map(|(n, t)| format!("{n}: {}", ty(t)))
                    .collect();
                format!("({}), {} rows", columns.join(", "), t.rows.len())
            });
            (NameKind::Table, detail, None)
        }
        Symbol::Proc(id) => {
            let kind = match program.procs.get(id.index()).map(|p| p.kind) {
                Some(ir::ProcKind::Phase) => NameKind::Phase,
                _ => NameKind::Effect,
            };
            let detail = proc_sigs
                .get(id.index())
                .map_or(String::new(), |p| format!("({})", params(p)));
            (kind, detail, None)
        }
        Symbol::Action(id) => {
            let detail = program.actions.get(id.index()).map_or(String::new(), |a| {
                let params: Vec<String> = a
                    .params
                    .iter()
                    .map(|p| match (p.set, &p.ty) {
                        // A set is shown as written: how many of which values.
                        (Some((lo, hi)), Type::List(t)) if lo == hi => {
                            format!("{}: exactly {lo} of {}", p.name, ty(t))
                        }
                        (Some((_, u32::MAX)), Type::List(t)) => {
                            format!("{}: any of {}", p.name, ty(t))
                        }
                        (Some((_, hi)), Type::List(t)) => {
                            format!("{}: at most {hi} of {}", p.name, ty(t))
                        }
                        _ => format!("{}: {}", p.name, ty(&p.ty)),
                    })
                    .collect();
                let mut s = format!("({})", params.join(", "));
                if let Some(d) = &a.description {
                    s.push_str(&format!(" \"{d}\""));
                }
                if a.last_resort.is_some() {
                    s.push_str(" only when no other");
                }
                s
            });
            (NameKind::Action, detail, None)
        }
    }
}

/// A type as it is written in a rules file.
fn type_text(program: &ir::Program, t: &Type) -> String {
    match t {
        Type::Int => "int".into(),
        Type::Bool => "bool".into(),
        Type::Player => "player".into(),
        Type::Enum(e) => program
            .enums
            .get(e.index())
            .map_or("?".into(), |e| e.name.clone()),
        Type::Entity(k) => program
            .kinds
            .get(k.index())
            .map_or("?".into(), |k| k.name.clone()),
        Type::Record(r) => program
            .records
            .get(r.index())
            .map_or("?".into(), |r| r.name.clone()),
        Type::List(inner) => format!("list of {}", type_text(program, inner)),
        Type::Map(inner, k) => format!(
            "{} by {}",
            type_text(program, inner),
            match k {
                ir::MapKey::Enum(e) => program
                    .enums
                    .get(e.index())
                    .map_or("?".into(), |e| e.name.clone()),
                ir::MapKey::Range(lo, hi) => format!("{lo}..{hi}"),
                ir::MapKey::PlayerRange(id) => program
                    .key_ranges
                    .get(*id as usize)
                    .map_or("?".into(), |r| r.written.clone()),
                ir::MapKey::Player => "player".into(),
                ir::MapKey::Kind(k) => program
                    .kinds
                    .get(k.index())
                    .map_or("?".into(), |k| k.name.clone()),
            }
        ),
        Type::Nothing => "none".into(),
        Type::Error => "?".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    const SRC: &str = r#"game "G" { players 2 }
enum suit { red, blue }
kind firm named acme, zed { price: int = 1 }
die d6: 1..6
player var cash: int = 0
var trump: suit = red
var owes: int by suit by player = 0
var marks: int by firm = 0
def worth(f: firm): int = f.price
action buy(f: firm) { me.cash -= worth(f) }
effect pay(p: player) { let r = roll d6
  p.cash += r }
flow { for p in players { turn p only buy
  pay(p) } }
winners = [p in players where p.cash > worth(acme) and trump == blue]
"#;

    fn index() -> NameIndex {
        let read = |_: &Path| Ok(SRC.to_string());
        let (loaded, index) = crate::load::load_indexed(Path::new("g.rules"), &read);
        assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
        index
    }

    /// The name written at each occurrence of a declaration, and the declaration's kind.
    fn uses(index: &NameIndex, name: &str, kind: NameKind) -> Vec<String> {
        let decl = index
            .decls
            .iter()
            .position(|d| d.name == name && d.kind == kind)
            .unwrap_or_else(|| panic!("no {kind:?} {name}"));
        index
            .occurrences(decl)
            .iter()
            .map(|s| SRC[s.start as usize..s.end as usize].to_string())
            .collect()
    }

    #[test]
    fn every_kind_of_name_is_declared_and_resolved() {
        let ix = index();
        let count = |name, kind| uses(&ix, name, kind).len();
        assert_eq!(count("suit", NameKind::Enum), 3); // declared, the types of trump and owes
        assert_eq!(count("blue", NameKind::EnumValue), 2);
        assert_eq!(count("firm", NameKind::Kind), 4); // two parameter types, a map's keys
        assert_eq!(count("acme", NameKind::Instance), 2);
        assert_eq!(count("price", NameKind::Field), 2);
        assert_eq!(count("d6", NameKind::Die), 2);
        assert_eq!(count("cash", NameKind::PlayerVar), 4);
        assert_eq!(count("trump", NameKind::Var), 2);
        assert_eq!(count("worth", NameKind::Def), 3);
        assert_eq!(count("buy", NameKind::Action), 2); // `turn p only buy`
        assert_eq!(count("pay", NameKind::Effect), 2);
        assert_eq!(count("r", NameKind::Local), 2);
        assert!(uses(&ix, "cash", NameKind::PlayerVar)
            .iter()
            .all(|s| s == "cash"));
        let worth = ix.decls.iter().find(|d| d.name == "worth").unwrap();
        assert_eq!(worth.detail, "(firm): int");
        // A map of maps reads as written, the key written last outermost.
        let owes = ix.decls.iter().find(|d| d.name == "owes").unwrap();
        assert_eq!(owes.detail, "int by suit by player");
        let marks = ix.decls.iter().find(|d| d.name == "marks").unwrap();
        assert_eq!(marks.detail, "int by firm");
        let price = ix.decls.iter().find(|d| d.name == "price").unwrap();
        assert_eq!(
            (price.detail.as_str(), price.container.as_deref()),
            ("int", Some("firm"))
        );
        // Each parameter `f` and `p` is its own declaration, used in its own body only.
        let fs: Vec<&NameDecl> = ix.decls.iter().filter(|d| d.name == "f").collect();
        assert_eq!(fs.len(), 2);
        assert!(fs
            .iter()
            .all(|d| d.kind == NameKind::Parameter && d.detail == "firm"));
    }
}
