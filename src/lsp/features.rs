//! Answers about the name under the cursor: hover, go to definition, find references, rename.

use super::analysis::{Document, OWN_FILE};
use crate::check::index::{NameDecl, NameKind};
use crate::check::{BUILTIN_FUNCTIONS, BUILTIN_VALUES};
use crate::diag::FileId;
use crate::ir::Builtin;
use crate::syntax;
use lsp_types::{
    Hover, HoverContents, Location, MarkupContent, MarkupKind, Position, Range, TextEdit, Uri,
    WorkspaceEdit,
};
use std::collections::HashMap;

/// The declaration of the name at a position, and the range of the name there.
fn decl_at(doc: &Document, pos: Position) -> Option<(usize, Range)> {
    let offset = doc.lines.offset(&doc.text, pos);
    let index = &doc.analysis.index;
    let decl = index.at(OWN_FILE, offset)?;
    let span = index
        .occurrences(decl)
        .into_iter()
        .find(|s| s.file == OWN_FILE && s.start as usize <= offset && offset <= s.end as usize)?;
    let range = doc
        .lines
        .range(&doc.text, span.start as usize, span.end as usize);
    Some((decl, range))
}

/// What a name is, where it is declared, and the comment above its declaration.
pub fn hover(doc: &Document, pos: Position) -> Option<Hover> {
    let Some((decl, range)) = decl_at(doc, pos) else {
        return builtin_hover(doc, pos);
    };
    let analysis = &doc.analysis;
    let d = analysis.index.decls.get(decl)?;
    let text = analysis.file_text(d.span.file, &doc.text);
    let (line, comments) = declaration_line(&text, d.span.start as usize);
    let mut value = format!("```meeple\n{line}\n```\n\n{}", summary(d));
    if d.span.file != OWN_FILE {
        let name = &analysis.loaded.sources.file(d.span.file).name;
        value.push_str(&format!(" (in `{name}`)"));
    }
    if !comments.is_empty() {
        value.push_str("\n\n");
        value.push_str(&comments.join("\n"));
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: Some(range),
    })
}

/// A call of a built-in function under the cursor: how it is called and what it gives, from
/// its declaration (`ir::Builtin::facts`).
fn builtin_hover(doc: &Document, pos: Position) -> Option<Hover> {
    let offset = doc.lines.offset(&doc.text, pos);
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let start = doc.text[..offset]
        .char_indices()
        .rev()
        .find(|&(_, c)| !word(c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = doc.text[offset..]
        .find(|c| !word(c))
        .map_or(doc.text.len(), |i| offset + i);
    let line_start = doc.text[..start].rfind('\n').map_or(0, |i| i + 1);
    // Not a word of a comment.
    let called =
        doc.text[end..].trim_start().starts_with('(') && !doc.text[line_start..start].contains('#');
    let b = Builtin::by_name(&doc.text[start..end]).filter(|_| called)?;
    let facts = b.facts();
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: format!("built-in function {}\n\n{}", b.forms(), facts.doc),
        }),
        range: Some(doc.lines.range(&doc.text, start, end)),
    })
}

/// One line on a declared name: `player variable coins: int`.
pub fn summary(d: &NameDecl) -> String {
    let mut s = format!("{} `{}`", d.kind.describe(), d.name);
    match d.kind {
        NameKind::Def | NameKind::Effect | NameKind::Phase | NameKind::Action => {
            s.push_str(&format!(" `{}`", d.detail))
        }
        NameKind::Die => s.push_str(&format!(": {}", d.detail)),
        NameKind::Enum | NameKind::Kind | NameKind::Record => {}
        _ if d.detail.is_empty() => {}
        _ => s.push_str(&format!(": `{}`", d.detail)),
    }
    match (d.kind, &d.container) {
        (NameKind::Field, Some(c)) => s.push_str(&format!(", of each `{c}`")),
        (NameKind::EnumValue | NameKind::Instance, Some(c)) => s.push_str(&format!(", of `{c}`")),
        _ => {}
    }
    s
}

/// The line a declaration is written on, trimmed, and the `#` comment lines just above it.
/// Rules files have no doc comments of their own: a comment above a declaration serves.
fn declaration_line(text: &str, at: usize) -> (String, Vec<String>) {
    let at = at.min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line = text[start..end].trim().to_string();
    let mut comments = Vec::new();
    for above in text[..start].lines().rev() {
        match above.trim().strip_prefix('#') {
            Some(c) => comments.push(c.trim().to_string()),
            None => break,
        }
    }
    comments.reverse();
    (line, comments)
}

/// Where the name at a position is declared.
pub fn definition(doc: &Document, pos: Position) -> Option<Location> {
    let (decl, _) = decl_at(doc, pos)?;
    let d = doc.analysis.index.decls.get(decl)?;
    doc.analysis
        .location(&doc.uri, &doc.text, &doc.lines, d.span)
}

/// Every place the name at a position is written.
pub fn references(doc: &Document, pos: Position, with_declaration: bool) -> Vec<Location> {
    let Some((decl, _)) = decl_at(doc, pos) else {
        return Vec::new();
    };
    let index = &doc.analysis.index;
    let own = index.decls.get(decl).map(|d| d.span);
    index
        .occurrences(decl)
        .into_iter()
        .filter(|s| with_declaration || Some(*s) != own)
        .filter_map(|s| doc.analysis.location(&doc.uri, &doc.text, &doc.lines, s))
        .collect()
}

/// The range of the name a rename would change, if the position is on a declared name.
pub fn prepare_rename(doc: &Document, pos: Position) -> Option<Range> {
    decl_at(doc, pos).map(|(_, range)| range)
}

/// Every occurrence of the name at a position, renamed; an error says why it cannot be.
// `WorkspaceEdit` keys its changes by `Uri`, which caches a field inside: never changed here.
#[allow(clippy::mutable_key_type)]
pub fn rename(doc: &Document, pos: Position, new_name: &str) -> Result<WorkspaceEdit, String> {
    let (decl, _) = decl_at(doc, pos).ok_or("there is no declared name here")?;
    let index = &doc.analysis.index;
    let d = &index.decls[decl];
    check_new_name(new_name, d)?;
    let clash = index.decls.iter().any(|other| {
        other.name == new_name
            && other.kind.is_top_level()
            && d.kind.is_top_level()
            && (other.kind == NameKind::Action) == (d.kind == NameKind::Action)
            && (other.kind == NameKind::PlayerVar) == (d.kind == NameKind::PlayerVar)
    });
    if clash {
        return Err(format!("`{new_name}` already names something else"));
    }
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for span in index.occurrences(decl) {
        let at = doc
            .analysis
            .location(&doc.uri, &doc.text, &doc.lines, span)
            .ok_or("a file of this game has no `file:` address")?;
        changes
            .entry(at.uri)
            .or_default()
            .push(TextEdit::new(at.range, new_name.to_string()));
    }
    Ok(WorkspaceEdit::new(changes))
}

/// A new name must be a name (not a reserved word) and not a built-in one.
fn check_new_name(new_name: &str, d: &NameDecl) -> Result<(), String> {
    // `syntax::parse` decides what a name is: it refuses reserved words (the lowering does).
    let probe = format!("var {new_name}: int = 0");
    let is_name = new_name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_')
        && matches!(
            syntax::parse(FileId(0), &probe),
            Ok(f) if f.items.len() == 1
        );
    if !is_name {
        return Err(format!("`{new_name}` is not a name a rules file can use"));
    }
    let callable = matches!(d.kind, NameKind::Def | NameKind::Effect | NameKind::Phase);
    if d.kind.is_top_level()
        && (BUILTIN_VALUES.contains(&new_name)
            || (callable && BUILTIN_FUNCTIONS.contains(&new_name)))
    {
        return Err(format!("`{new_name}` is a built-in name"));
    }
    Ok(())
}
