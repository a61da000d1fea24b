//! The outline of a document: its declarations, with enum values, fields and parameters inside.

use super::text::Lines;
use crate::diag::Span;
use crate::syntax::ast::{self, Decl, Item};
use lsp_types::{DocumentSymbol, SymbolKind};

/// The declarations of a parsed document, in source order.
pub fn outline(file: &ast::File, text: &str, lines: &Lines) -> Vec<DocumentSymbol> {
    let mut out: Vec<DocumentSymbol> = Vec::new();
    // The span of the section being read: what it holds follows its marker as top-level items,
    // and is drawn inside it, as it is written.
    let mut open: Option<Span> = None;
    for item in &file.items {
        let Item::Decl { decl, .. } = item else {
            continue;
        };
        let Some(symbol) = decl_symbol(decl, text, lines) else {
            continue;
        };
        let start = extent(decl, text).0 as u32;
        let inside = open.is_some_and(|s| s.start <= start && start < s.end);
        match (inside, out.last_mut()) {
            (true, Some(section)) => section.children.get_or_insert_with(Vec::new).push(symbol),
            _ => {
                open = None;
                out.push(symbol);
            }
        }
        if let Decl::Section(s) = decl {
            // A nested section (an error) is drawn flat after its outer one.
            if !inside {
                open = Some(s.span);
            }
        }
    }
    out
}

/// Where each top-level declaration of a parsed document starts, in source order.
pub fn decl_starts(file: &ast::File, text: &str) -> Vec<usize> {
    file.items
        .iter()
        .map(|item| match item {
            Item::Decl { decl, .. } => extent(decl, text).0,
            Item::Remove { span, .. } => span.start as usize,
        })
        .collect()
}

fn symbol(
    name: &str,
    detail: Option<String>,
    kind: SymbolKind,
    (start, end): (usize, usize),
    selection: Span,
    (text, lines): (&str, &Lines),
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    let range = lines.range(text, start, end);
    let mut selection_range = lines.range(text, selection.start as usize, selection.end as usize);
    // The protocol wants the name inside the whole.
    if selection_range.start < range.start || selection_range.end > range.end {
        selection_range = range;
    }
    #[allow(deprecated)]
    DocumentSymbol {
        name: if name.is_empty() {
            "?".into()
        } else {
            name.into()
        },
        detail,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range,
        children: (!children.is_empty()).then_some(children),
    }
}

fn leaf(
    name: &ast::Name,
    kind: SymbolKind,
    detail: Option<String>,
    text: &str,
    lines: &Lines,
) -> DocumentSymbol {
    let span = (name.span.start as usize, name.span.end as usize);
    symbol(
        &name.text,
        detail,
        kind,
        span,
        name.span,
        (text, lines),
        Vec::new(),
    )
}

// Long because it is one match over every kind of declaration, an arm its outline entry.
fn decl_symbol(decl: &Decl, text: &str, lines: &Lines) -> Option<DocumentSymbol> {
    let whole = extent(decl, text);
    let snippet = |span: Span| {
        text.get(span.start as usize..span.end as usize)
            .map(str::to_string)
    };
    // A kind's or a record's field: its name, and its type as written.
    let field = |name: &ast::Name, ty: &ast::TypeExpr| {
        leaf(name, SymbolKind::FIELD, snippet(ty.span()), text, lines)
    };
    let params = |ps: &[ast::Param]| -> Vec<DocumentSymbol> {
        ps.iter()
            .map(|p| {
                leaf(
                    &p.name,
                    SymbolKind::VARIABLE,
                    snippet(p.ty.span()),
                    text,
                    lines,
                )
            })
            .collect()
    };
    let (name, kind, detail, selection, children) = match decl {
        Decl::Game(g) => {
            let title = g.title.literal().unwrap_or_default();
            (
                title,
                SymbolKind::PACKAGE,
                Some("game".into()),
                g.title.span,
                Vec::new(),
            )
        }
        Decl::Variant(v) => {
            let title = v.title.literal().unwrap_or_default();
            (
                title,
                SymbolKind::PACKAGE,
                Some("variant".into()),
                v.title.span,
                Vec::new(),
            )
        }
        Decl::Scenario(sc) => {
            let title = sc.title.literal().unwrap_or_default();
            (
                title,
                SymbolKind::EVENT,
                Some("scenario".into()),
                sc.title.span,
                Vec::new(),
            )
        }
        Decl::Enum(e) => {
            let values = e
                .values
                .iter()
                .map(|v| leaf(v, SymbolKind::ENUM_MEMBER, None, text, lines))
                .collect();
            (
                e.name.text.clone(),
                SymbolKind::ENUM,
                None,
                e.name.span,
                values,
            )
        }
        Decl::Var(v) => {
            let (kind, what) = if v.per_player {
                (SymbolKind::PROPERTY, "player var")
            } else {
                (SymbolKind::VARIABLE, "var")
            };
            let detail = format!("{what}: {}", snippet(v.ty.span()).unwrap_or_default());
            (
                v.name.text.clone(),
                kind,
                Some(detail),
                v.name.span,
                Vec::new(),
            )
        }
        Decl::Kind(k) => {
            let mut children: Vec<DocumentSymbol> = match &k.count {
                ast::KindCount::Named(names) => names
                    .iter()
                    .map(|n| leaf(n, SymbolKind::CONSTANT, None, text, lines))
                    .collect(),
                ast::KindCount::Count(_) | ast::KindCount::Rows { .. } => Vec::new(),
            };
            children.extend(k.fields.iter().map(|f| field(&f.name, &f.ty)));
            (
                k.name.text.clone(),
                SymbolKind::CLASS,
                Some("kind".into()),
                k.name.span,
                children,
            )
        }
        Decl::Record(r) => {
            let children = r.fields.iter().map(|f| field(&f.name, &f.ty)).collect();
            (
                r.name.text.clone(),
                SymbolKind::STRUCT,
                Some("record".into()),
                r.name.span,
                children,
            )
        }
        Decl::Die(d) => (
            d.name.text.clone(),
            SymbolKind::CONSTANT,
            Some("die".into()),
            d.name.span,
            Vec::new(),
        ),
        Decl::Table(t) => (
            t.name.text.clone(),
            SymbolKind::STRUCT,
            Some("table".into()),
            t.name.span,
            params(&t.columns),
        ),
        Decl::Def(d) => (
            d.name.text.clone(),
            SymbolKind::FUNCTION,
            Some("def".into()),
            d.name.span,
            params(&d.params),
        ),
        Decl::Effect(p) => (
            p.name.text.clone(),
            SymbolKind::FUNCTION,
            Some("effect".into()),
            p.name.span,
            params(&p.params),
        ),
        Decl::Phase(p) => (
            p.name.text.clone(),
            SymbolKind::MODULE,
            Some("phase".into()),
            p.name.span,
            Vec::new(),
        ),
        Decl::Action(a) => (
            a.name.text.clone(),
            SymbolKind::METHOD,
            Some("action".into()),
            a.name.span,
            params(&a.params),
        ),
        Decl::Flow(b) | Decl::Setup(b) => (
            b.keyword.text.clone(),
            SymbolKind::MODULE,
            None,
            b.keyword.span,
            Vec::new(),
        ),
        Decl::Score(s) | Decl::Goal(s) => (
            s.keyword.text.clone(),
            SymbolKind::FUNCTION,
            None,
            s.keyword.span,
            Vec::new(),
        ),
        Decl::Winners(w) => (
            w.keyword.text.clone(),
            SymbolKind::FUNCTION,
            None,
            w.keyword.span,
            Vec::new(),
        ),
        Decl::Invariant(i) => (
            i.name.text.clone(),
            SymbolKind::BOOLEAN,
            Some("invariant".into()),
            i.name.span,
            Vec::new(),
        ),
        Decl::Show(s) => (
            s.name.text.clone(),
            SymbolKind::PROPERTY,
            Some(if s.per_player { "player show" } else { "show" }.into()),
            s.name.span,
            Vec::new(),
        ),
        // What it holds follows it as items of their own: `outline` puts them inside it.
        Decl::Section(s) => (
            s.heading.literal().unwrap_or_default(),
            SymbolKind::NAMESPACE,
            Some("section".into()),
            s.heading.span,
            Vec::new(),
        ),
    };
    Some(symbol(
        &name,
        detail,
        kind,
        whole,
        selection,
        (text, lines),
        children,
    ))
}

/// The bytes a declaration covers: from the start of the line its name is on (or its own
/// start) to the end of its last part, and its closing brace where it has one.
fn extent(decl: &Decl, text: &str) -> (usize, usize) {
    let mut spans: Vec<Span> = Vec::new();
    let mut braced = false;
    match decl {
        Decl::Game(g) => spans.push(g.span),
        Decl::Variant(v) => spans.push(v.span),
        Decl::Scenario(s) => spans.push(s.span),
        Decl::Section(s) => spans.push(s.span),
        Decl::Enum(e) => {
            spans.push(e.name.span);
            spans.extend(e.values.iter().map(|v| v.span));
            spans.extend(e.shown.iter().flatten().map(|t| t.span));
            braced = true;
        }
        Decl::Var(v) => {
            spans.extend([v.name.span, v.init.span]);
            spans.extend(v.visible_when.iter().map(|e| e.span));
            spans.extend(v.visible_part.iter().map(|p| p.span));
            spans.extend(v.shown_when.iter().map(|e| e.span));
        }
        Decl::Kind(k) => {
            spans.push(k.name.span);
            for f in &k.fields {
                spans.extend([f.name.span, f.init.span]);
                spans.extend(f.visible_when.iter().map(|e| e.span));
                spans.extend(f.visible_part.iter().map(|p| p.span));
                spans.extend(f.shown_when.iter().map(|e| e.span));
            }
            braced = true;
        }
        Decl::Record(r) => {
            spans.push(r.name.span);
            for f in &r.fields {
                spans.extend([f.name.span, f.ty.span()]);
                spans.extend(f.default.iter().map(|e| e.span));
                spans.extend(f.visible_when.iter().map(|e| e.span));
            }
            braced = true;
        }
        Decl::Die(d) => spans.extend([d.name.span, d.faces.span]),
        Decl::Table(t) => {
            spans.push(t.name.span);
            spans.extend(t.rows.iter().map(|r| r.span));
            braced = true;
        }
        Decl::Def(d) => spans.extend([d.name.span, d.body.span]),
        Decl::Effect(p) | Decl::Phase(p) => spans.extend([p.name.span, p.body.span]),
        Decl::Action(a) => spans.extend([a.name.span, a.body.span]),
        Decl::Flow(b) | Decl::Setup(b) => spans.extend([b.keyword.span, b.body.span]),
        Decl::Score(s) | Decl::Goal(s) => spans.extend([s.keyword.span, s.body.span]),
        Decl::Winners(w) => spans.extend([w.keyword.span, w.body.span]),
        Decl::Invariant(i) => spans.extend([i.name.span, i.cond.span]),
        Decl::Show(s) => {
            spans.extend([s.name.span, s.value.span()]);
            spans.extend(s.shown_when.iter().map(|e| e.span));
        }
    }
    let start = spans
        .iter()
        .map(|s| s.start as usize)
        .min()
        .unwrap_or(0)
        .min(text.len());
    let mut end = spans
        .iter()
        .map(|s| s.end as usize)
        .max()
        .unwrap_or(0)
        .min(text.len());
    if braced {
        if let Some(i) = text[end..].find('}') {
            end += i + 1;
        }
    }
    // Back to the first word of the line: the keywords before the name (`player secret var`).
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let indent = text[line_start..start].len() - text[line_start..start].trim_start().len();
    (line_start + indent, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sections_entries_are_its_children_and_what_follows_it_is_not() {
        let text = "game \"G\" { players 2 }\nsection \"Pot\" {\n  var pot: int = 0\n  show half = pot / 2\n}\nvar after: int = 0\nflow { }\n";
        let file = crate::syntax::parse(crate::diag::FileId(0), text).expect("parses");
        let symbols = outline(&file, text, &Lines::new(text));
        let names: Vec<&str> = symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["G", "Pot", "after", "flow"]);
        let section = &symbols[1];
        assert_eq!(section.kind, SymbolKind::NAMESPACE);
        assert_eq!((section.range.start.line, section.range.end.line), (1, 4));
        let children: Vec<&str> = section
            .children
            .iter()
            .flatten()
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(children, ["pot", "half"]);
    }
}
