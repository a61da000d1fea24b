//! One declaration in words: a variable, a kind, an enum, a die, a definition, an effect, a
//! phase, an action, an invariant. Used by the chapters of the book and by the variants' list
//! of differences alike.

use super::expr::{call_words, expr, text, text_inner, type_words, visibility_condition};
use super::notes;
use super::stmt::{self, Line};
use super::{Block, Section};
use crate::diag::SourceMap;
use crate::syntax::ast::{
    ActionDecl, DefDecl, DieDecl, EnumDecl, ExprKind, FieldDecl, InvariantDecl, KindCount,
    KindDecl, Param, ProcDecl, RecordDecl, SectionDecl, ShowDecl, ShowValue, Stmt, StmtKind,
    TableDecl, TypeExpr, VarDecl, Visibility,
};

/// Who may see a value, in words; empty for a public one.
pub fn visibility(v: Visibility, per_player: bool) -> &'static str {
    match (v, per_player) {
        (Visibility::Public, _) => "",
        (Visibility::Secret, true) => "secret: only its player sees it",
        (Visibility::Secret, false) | (Visibility::Hidden, _) => "hidden: nobody sees it",
        (Visibility::Internal, _) => "bookkeeping of the rules: not shown",
    }
}

/// "starting at 0", "starting empty", "starting as card".
fn starting(init: &crate::syntax::ast::Expr, ty: &TypeExpr) -> String {
    match (&init.kind, ty) {
        // `list of card = card`: every instance (or value) of the kind (or enum).
        (ExprKind::Name(n), TypeExpr::List(inner, _)) if matches!(inner.as_ref(), TypeExpr::Named(t) if t.text == n.text) =>
        {
            format!("starting with every {}", n.text)
        }
        _ => starting_value(init),
    }
}

/// "starting at 0", "starting empty", "starting as ...".
fn starting_value(init: &crate::syntax::ast::Expr) -> String {
    match &init.kind {
        ExprKind::List(xs) if xs.is_empty() => "starting empty".to_string(),
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::None => {
            format!("starting at {}", expr(init))
        }
        _ => format!("starting as {}", expr(init)),
    }
}

/// `visible last k` in words: "everyone sees its last items, as many as its owner's turned".
pub fn part_words(p: &crate::syntax::ast::VisiblePart) -> String {
    let end = match p.end {
        crate::syntax::ast::End::First => "first",
        crate::syntax::ast::End::Last => "last",
    };
    format!(
        "everyone sees its {end} items, as many as {}",
        super::expr::visibility_condition(&p.count)
    )
}

/// `shown when c` in words: views draw it only while the condition holds.
pub fn shown_words(c: &crate::syntax::ast::Expr) -> String {
    format!(
        "views show it only while {}",
        super::expr::visibility_condition(c)
    )
}

/// A variable as one item: "honest: a number, starting at 0 — the honest score track".
pub fn var_item(v: &VarDecl, sources: &SourceMap) -> String {
    let mut out = format!(
        "{}: {}, {}",
        v.name.text,
        type_words(&v.ty),
        starting(&v.init, &v.ty)
    );
    let vis = visibility(v.visibility, v.per_player);
    if !vis.is_empty() {
        out.push_str(&format!(" ({vis})"));
    }
    if let Some(w) = &v.visible_when {
        out.push_str(&format!(
            "; also visible to a viewer when: {}",
            visibility_condition(w)
        ));
    }
    if let Some(p) = &v.visible_part {
        out.push_str(&format!("; but {}", part_words(p)));
    }
    if let Some(c) = &v.shown_when {
        out.push_str(&format!("; {}", shown_words(c)));
    }
    if let Some(c) = notes::trailing(sources, v.name.span) {
        out.push_str(&format!(" — {c}"));
    }
    out
}

/// A variable as an item, with the designer's comments above it as notes beneath.
pub fn var_lines(v: &VarDecl, sources: &SourceMap) -> Vec<Line> {
    let mut lines = vec![Line {
        depth: 0,
        text: var_item(v, sources),
    }];
    for p in notes::paragraphs(&notes::above(sources, v.name.span)) {
        lines.push(Line {
            depth: 1,
            text: format!("note: {p}"),
        });
    }
    lines
}

/// The fields whose initial values read `index`: those in which the instances of a kind differ
/// from the start.
pub fn by_index(k: &KindDecl) -> Vec<&str> {
    k.fields
        .iter()
        .filter(|f| mentions(&f.init, "index"))
        .map(|f| f.name.text.as_str())
        .collect()
}

/// Whether an expression uses a name anywhere.
fn mentions(e: &crate::syntax::ast::Expr, name: &str) -> bool {
    let any = |xs: &[crate::syntax::ast::Expr]| xs.iter().any(|x| mentions(x, name));
    match &e.kind {
        ExprKind::Name(n) => n.text == name,
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::None | ExprKind::Me => false,
        ExprKind::Call { args, .. } | ExprKind::List(args) => any(args),
        ExprKind::Record { fields, .. } => fields.iter().any(|(_, v)| mentions(v, name)),
        ExprKind::Field { base, .. } => mentions(base, name),
        ExprKind::Index { base, index } => mentions(base, name) || mentions(index, name),
        ExprKind::Binary { lhs, rhs, .. } => mentions(lhs, name) || mentions(rhs, name),
        ExprKind::Unary { operand, .. } => mentions(operand, name),
        ExprKind::If {
            cond,
            then,
            otherwise,
        } => mentions(cond, name) || mentions(then, name) || mentions(otherwise, name),
        ExprKind::Comprehension(c) => {
            mentions(&c.source, name)
                || c.filter.as_ref().is_some_and(|f| mentions(f, name))
                || c.map.as_ref().is_some_and(|m| mentions(m, name))
                || any(&c.keys)
        }
        ExprKind::ByPlayers(rows) => rows.iter().any(|(_, v)| mentions(v, name)),
    }
}

/// A field of a kind as one item.
pub fn field_item(f: &FieldDecl, sources: &SourceMap) -> String {
    field_words(f, sources, true)
}

/// A field of a kind in words; `start` says whether to give its initial value.
fn field_words(f: &FieldDecl, sources: &SourceMap, start: bool) -> String {
    let mut out = format!("{}: {}", f.name.text, type_words(&f.ty));
    if start {
        out.push_str(&format!(", {}", starting(&f.init, &f.ty)));
    }
    let vis = visibility(f.visibility, false);
    if !vis.is_empty() {
        out.push_str(&format!(" ({vis})"));
    }
    if let Some(w) = &f.visible_when {
        out.push_str(&format!(
            "; also visible to a viewer when: {}",
            visibility_condition(w)
        ));
    }
    if let Some(p) = &f.visible_part {
        out.push_str(&format!("; but {}", part_words(p)));
    }
    if let Some(c) = &f.shown_when {
        out.push_str(&format!("; {}", shown_words(c)));
    }
    if let Some(c) = notes::trailing(sources, f.name.span) {
        out.push_str(&format!(" — {c}"));
    }
    out
}

/// A kind: how many, how each is shown and listed, and its fields. With `listed`, the instances
/// are listed one by one elsewhere, so a field computed from `index` is not given as a formula.
pub fn kind_blocks(k: &KindDecl, sources: &SourceMap, listed: bool) -> Vec<Block> {
    let mut head = match &k.count {
        KindCount::Count(n) => format!("{}: {} of them", k.name.text, expr(n)),
        KindCount::Rows { table, copies } => match copies {
            Some(c) => format!(
                "{}: as many of each row of {} as its {} says",
                k.name.text, table.text, c.text
            ),
            None => format!("{}: one for each row of {}", k.name.text, table.text),
        },
        KindCount::Named(names) => {
            let names: Vec<&str> = names.iter().map(|n| n.text.as_str()).collect();
            format!("{}: one each named {}", k.name.text, names.join(", "))
        }
    };
    if let Some(label) = &k.label {
        head.push_str(&format!(", each shown as {}", text(label)));
    }
    if let Some(l) = &k.listed {
        head.push_str(&format!("; the game lists only those where {}", expr(l)));
    }
    head.push('.');
    let mut blocks = notes_block(sources, k.name.span);
    blocks.push(Block::Para(head));
    if !k.fields.is_empty() {
        blocks.push(Block::Items(
            k.fields
                .iter()
                .map(|f| field_words(f, sources, !(listed && mentions(&f.init, "index"))))
                .collect(),
        ));
    }
    blocks
}

/// An enum as one item: "suit: clubs (shown “C”), diamonds (shown “D”)".
pub fn enum_item(e: &EnumDecl) -> String {
    let values: Vec<String> = e
        .values
        .iter()
        .enumerate()
        .map(|(i, v)| match e.shown.get(i).and_then(Option::as_ref) {
            Some(t) => format!("{} (shown {})", v.text, text(t)),
            None => v.text.clone(),
        })
        .collect();
    format!("{}: {}", e.name.text, values.join(", "))
}

/// A record as its fields in words: `clue: a colour (colour, none unless given), a number
/// (number)`, and how it is shown.
pub fn record_item(r: &RecordDecl) -> String {
    let fields: Vec<String> = r
        .fields
        .iter()
        .map(|f| {
            let mut out = match &f.default {
                Some(d) => format!(
                    "{} ({}, {} unless given",
                    f.name.text,
                    type_words(&f.ty),
                    super::expr::value(d)
                ),
                None => format!("{} ({}", f.name.text, type_words(&f.ty)),
            };
            let vis = match f.visibility {
                Visibility::Secret => "; only the player whose variable holds it sees it",
                Visibility::Hidden => "; nobody sees it",
                _ => "",
            };
            out.push_str(vis);
            if let Some(w) = &f.visible_when {
                out.push_str(&format!(
                    "; also seen by a viewer when: {}",
                    visibility_condition(w)
                ));
            }
            out.push(')');
            out
        })
        .collect();
    let shown = r
        .label
        .as_ref()
        .map(|t| format!(", shown {}", text(t)))
        .unwrap_or_default();
    format!("{}: a value of {}{shown}", r.name.text, fields.join(", "))
}

/// A table as its notes, a line naming its columns, and its rows, numbered as `nth` counts them.
pub fn table_blocks(t: &TableDecl, sources: &SourceMap) -> Vec<Block> {
    let mut blocks = notes_block(sources, t.name.span);
    let columns: Vec<String> = t
        .columns
        .iter()
        .map(|c| format!("{} ({})", c.name.text, type_words(&c.ty)))
        .collect();
    blocks.push(Block::Para(format!(
        "Table {}, {} rows of {}:",
        t.name.text,
        t.rows.len(),
        columns.join(", ")
    )));
    let mut head = vec!["row".to_string()];
    head.extend(t.columns.iter().map(|c| c.name.text.clone()));
    // A comment at the end of a row says what the row is: it becomes a last column.
    let notes: Vec<Option<String>> = t
        .rows
        .iter()
        .map(|r| notes::trailing(sources, r.span))
        .collect();
    let noted = notes.iter().any(Option::is_some);
    if noted {
        head.push("note".to_string());
    }
    let rows = t
        .rows
        .iter()
        .zip(notes)
        .enumerate()
        .map(|(i, (r, note))| {
            let mut cells = vec![(i + 1).to_string()];
            cells.extend(r.cells.iter().map(expr));
            cells.resize(head.len() - usize::from(noted), String::new());
            if noted {
                cells.push(note.unwrap_or_default());
            }
            cells
        })
        .collect();
    blocks.push(Block::Table { head, rows });
    blocks
}

/// A die as one item: "d6: a die with faces 1 to 6".
pub fn die_item(d: &DieDecl) -> String {
    format!("{}: a die with faces {}", d.name.text, expr(&d.faces))
}

/// A definition as lines: "total(p) means ..." and its notes beneath.
pub fn def_lines(d: &DefDecl, sources: &SourceMap) -> Vec<Line> {
    let mut lines = vec![Line {
        depth: 0,
        text: format!(
            "{} means {} ({})",
            call_words(&d.name.text, &params_of(&d.params)),
            expr(&d.body),
            type_words(&d.ret)
        ),
    }];
    for p in notes::paragraphs(&notes::above(sources, d.name.span)) {
        lines.push(Line {
            depth: 1,
            text: format!("note: {p}"),
        });
    }
    lines
}

/// The names of parameters, one by one.
fn params_of(params: &[Param]) -> Vec<String> {
    params.iter().map(|p| p.name.text.clone()).collect()
}

/// Parameters with their types: "p (a player), t (a team)".
pub fn params_words(params: &[Param]) -> String {
    params
        .iter()
        .map(|p| format!("{} ({})", p.name.text, type_words(&p.ty)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The notes block for the comments above a name, if there are any.
pub fn notes_block(sources: &SourceMap, span: crate::diag::Span) -> Vec<Block> {
    let lines = notes::paragraphs(&notes::above(sources, span));
    if lines.is_empty() {
        Vec::new()
    } else {
        vec![Block::Note(lines)]
    }
}

/// The notes block for the comments introducing a file's header, if there are any.
pub fn header_notes(sources: &SourceMap, span: crate::diag::Span) -> Vec<Block> {
    let lines = notes::paragraphs(&notes::header(sources, span));
    if lines.is_empty() {
        Vec::new()
    } else {
        vec![Block::Note(lines)]
    }
}

/// An effect or a phase as a section: its parameters, notes and steps.
pub fn proc_section(p: &ProcDecl, phase: bool, sources: &SourceMap) -> Section {
    let heading = if phase {
        format!("Phase {}", call_words(&p.name.text, &[]))
    } else {
        call_words(&p.name.text, &params_of(&p.params))
    };
    let mut blocks = notes_block(sources, p.name.span);
    if !p.params.is_empty() {
        blocks.push(Block::Para(format!("Given {}:", params_words(&p.params))));
    }
    blocks.push(Block::Steps(stmt::block(&p.body, 0)));
    Section {
        level: 3,
        heading,
        blocks,
    }
}

/// The requirements at the head of an action's body, and the statements after them.
pub fn split_requires(body: &[Stmt]) -> (Vec<&Stmt>, &[Stmt]) {
    let n = body
        .iter()
        .take_while(|s| matches!(s.kind, StmtKind::Require { .. } | StmtKind::Prefer(_)))
        .count();
    (body[..n].iter().collect(), &body[n..])
}

/// An action as a section: what the player chooses, what it needs, what it does.
pub fn action_section(a: &ActionDecl, sources: &SourceMap) -> Section {
    let mut heading = a.name.text.clone();
    for p in &a.params {
        heading.push(' ');
        heading.push_str(&p.name.text);
    }
    let mut blocks = Vec::new();
    match &a.description {
        Some(d) => blocks.push(Block::Para(format!(
            "{}.",
            text_inner(d).trim_end_matches('.')
        ))),
        None => blocks.push(Block::Para("(No description.)".to_string())),
    }
    blocks.extend(notes_block(sources, a.name.span));
    if a.last_resort.is_some() {
        blocks.push(Block::Para(
            "Offered only when no other action of the turn is possible.".to_string(),
        ));
    }
    if !a.params.is_empty() {
        let chosen: Vec<String> = a
            .params
            .iter()
            .map(|p| {
                let secret = if p.secret.is_some() {
                    " (only the player sees it: the others read the move without it)"
                } else {
                    ""
                };
                let what = match &p.count {
                    Some(count) => set_words(count, &p.ty),
                    None => domain(&p.ty),
                };
                format!("{} is {what}{secret}", p.name.text)
            })
            .collect();
        blocks.push(Block::Para(format!(
            "Typed as `{}`, where {}.",
            heading,
            chosen.join("; ")
        )));
    }
    let (requires, effects) = split_requires(&a.body.stmts);
    if requires
        .iter()
        .any(|s| matches!(s.kind, StmtKind::Require { .. }))
    {
        let items = requires
            .iter()
            .filter_map(|s| match &s.kind {
                StmtKind::Require { cond, reason } => Some(requirement(cond, reason)),
                _ => None,
            })
            .collect();
        blocks.push(Block::Para("Allowed only if:".to_string()));
        blocks.push(Block::Items(items));
    }
    for s in &requires {
        if let StmtKind::Prefer(value) = &s.kind {
            blocks.push(Block::Para(format!(
                "The bots' imagined players favour this move by {}.",
                expr(value)
            )));
        }
    }
    blocks.push(Block::Para("What happens:".to_string()));
    let mut lines = Vec::new();
    stmt::stmts(effects, 0, &mut lines);
    blocks.push(Block::Steps(lines));
    Section {
        level: 3,
        heading,
        blocks,
    }
}

/// One requirement: the condition in words, and the reason the game gives when it fails.
pub fn requirement(cond: &crate::syntax::ast::Expr, reason: &crate::syntax::ast::Text) -> String {
    let reason_words = text_inner(reason);
    if reason_words.trim().is_empty() {
        expr(cond)
    } else {
        format!("{} — otherwise: {}", expr(cond), text(reason))
    }
}

/// The values an action parameter takes, in words.
/// A set parameter's values in words: "exactly 3 different gems, typed in any order".
fn set_words(count: &crate::syntax::ast::ChooseCount, t: &TypeExpr) -> String {
    use crate::syntax::ast::CountKind;
    let many = match &count.kind {
        CountKind::Any => "any number of".to_string(),
        CountKind::AtMost(k) => format!("at most {}", super::expr::term(k)),
        CountKind::Exactly(k) => format!("exactly {}", super::expr::term(k)),
        CountKind::Between(range) => format!("from {}", super::stmt::between(range)),
    };
    format!(
        "{many} different {}, typed in any order",
        super::expr::plural_type(t)
    )
}

fn domain(t: &TypeExpr) -> String {
    match t {
        TypeExpr::Named(n) => format!("any {}", n.text),
        TypeExpr::Player(_) => "any player".to_string(),
        TypeExpr::Bool(_) => "yes or no".to_string(),
        other => type_words(other),
    }
}

/// A `show` as one item: what views show, worked out when they are drawn.
pub fn show_item(s: &ShowDecl) -> String {
    let value = match &s.value {
        ShowValue::Expr(e) => expr(e),
        ShowValue::Text(t) => text(t),
    };
    let when = match &s.shown_when {
        Some(c) => format!(" ({})", shown_words(c)),
        None => String::new(),
    };
    if s.per_player {
        format!(
            "{}, for each player (the owner): {value}{when}",
            s.name.text
        )
    } else {
        format!("{}: {value}{when}", s.name.text)
    }
}

/// A `section` as one item: its heading, then what it draws, in the order written.
pub fn section_item(s: &SectionDecl) -> String {
    let heading = s.heading.literal().unwrap_or_default();
    let names: Vec<String> = s
        .entries
        .iter()
        .map(|e| match e.per_player {
            true => format!("{} (each player's)", e.name.text),
            false => e.name.text.clone(),
        })
        .collect();
    let table = if s.table.is_some() {
        " (drawn as a table, a row per position)"
    } else {
        ""
    };
    format!("{heading}{table}: {}", names.join(", "))
}

/// An invariant as one item.
pub fn invariant_item(i: &InvariantDecl) -> String {
    match &i.description {
        Some(d) => format!("{}: {} ({})", i.name.text, text_inner(d), expr(&i.cond)),
        None => format!("{}: {}", i.name.text, expr(&i.cond)),
    }
}
