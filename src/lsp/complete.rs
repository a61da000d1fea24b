//! Completion: after a `.`, the fields of what stands before it; elsewhere keywords, built-in
//! names, the file's declarations, and the locals of the declaration being written.

use super::analysis::{Document, OWN_FILE};
use crate::check::index::{NameDecl, NameKind};
use crate::check::{BUILTIN_FUNCTIONS, BUILTIN_VALUES};
use crate::ir::Builtin;
use crate::syntax::KEYWORDS;
use lsp_types::{
    CompletionItem, CompletionItemKind, Documentation, MarkupContent, MarkupKind, Position,
};
use std::collections::BTreeSet;

/// Names the checker binds by itself in some bodies.
const IMPLICIT: &[(&str, &str)] = &[
    (
        "it",
        "the instance, in `shown as`, `listed when` and a field's `visible when`, `visible last` \
         or `shown when`; the record, in a record field's `visible when`",
    ),
    ("viewer", "the player looking, in `visible when`"),
    (
        "owner",
        "the player a per-player variable or `player show` belongs to, in `visible when`, \
         `visible last` or `shown when`",
    ),
    (
        "index",
        "the instance's number from 1, in a field's initial value",
    ),
    (
        "row",
        "the table's row (from 1) an instance is a copy of, in a field's initial value of a \
         kind made `from` a table",
    ),
];

/// What may be written at a position.
pub fn complete(doc: &Document, pos: Position) -> Vec<CompletionItem> {
    let offset = doc.lines.offset(&doc.text, pos);
    let before = &doc.text[..offset];
    let word_start = before.len()
        - before
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .map(char::len_utf8)
            .sum::<usize>();
    let analysis = doc.last_parsed();
    let decls = &analysis.index.decls;
    if before[..word_start].ends_with('.') {
        let owner = before[..word_start - 1]
            .trim_end()
            .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("");
        return members(decls, owner);
    }
    // Locals and parameters of the declaration the cursor is in, as far as the last version
    // that parsed tells: those declared between its start and the cursor.
    let own_text = &analysis.loaded.sources.file(OWN_FILE).text;
    let starts = &analysis.decl_starts;
    let cursor = offset.min(own_text.len());
    let scope_start = starts
        .iter()
        .rev()
        .find(|&&s| s <= cursor)
        .copied()
        .unwrap_or(0);
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let mut push = |item: CompletionItem, out: &mut Vec<CompletionItem>| {
        if seen.insert(item.label.clone()) {
            out.push(item);
        }
    };
    for d in decls.iter().rev() {
        let local = matches!(d.kind, NameKind::Local | NameKind::Parameter);
        let here = d.span.file == OWN_FILE
            && (d.span.start as usize) >= scope_start
            && (d.span.start as usize) < cursor;
        if local && here {
            push(item(d), &mut out);
        }
    }
    for d in decls {
        if d.kind.is_top_level() || d.kind == NameKind::EnumValue {
            push(item(d), &mut out);
        }
    }
    for (name, what) in IMPLICIT {
        push(plain(name, CompletionItemKind::VARIABLE, what), &mut out);
    }
    for name in BUILTIN_VALUES {
        push(
            plain(name, CompletionItemKind::CONSTANT, "built-in"),
            &mut out,
        );
    }
    for name in BUILTIN_FUNCTIONS {
        let mut item = plain(name, CompletionItemKind::FUNCTION, "built-in function");
        // A built-in's own line from its declaration (`ir::Builtin::facts`); a query has none.
        if let Some(b) = Builtin::by_name(name) {
            item.detail = Some(b.facts().usage.to_string());
            item.documentation = Some(Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: b.facts().doc.to_string(),
            }));
        }
        push(item, &mut out);
    }
    for word in KEYWORDS {
        push(
            plain(word, CompletionItemKind::KEYWORD, "keyword"),
            &mut out,
        );
    }
    out
}

/// Fields after `owner.`: a player's variables, an instance's or a record's fields, or all of them when the
/// type of `owner` is not known.
fn members(decls: &[NameDecl], owner: &str) -> Vec<CompletionItem> {
    let ty = if owner == "me" {
        Some("player".to_string())
    } else {
        // The nearest binding of the name: locals shadow top-level names.
        decls
            .iter()
            .rev()
            .filter(|d| d.name == owner)
            .min_by_key(|d| !matches!(d.kind, NameKind::Local | NameKind::Parameter))
            .map(|d| d.detail.clone())
    };
    let player_vars = || decls.iter().filter(|d| d.kind == NameKind::PlayerVar);
    let chosen: Vec<&NameDecl> = match ty.as_deref() {
        Some("player") => player_vars().collect(),
        Some(kind)
            if decls
                .iter()
                .any(|d| matches!(d.kind, NameKind::Kind | NameKind::Record) && d.name == kind) =>
        {
            decls
                .iter()
                .filter(|d| d.kind == NameKind::Field && d.container.as_deref() == Some(kind))
                .collect()
        }
        _ => decls
            .iter()
            .filter(|d| matches!(d.kind, NameKind::PlayerVar | NameKind::Field))
            .collect(),
    };
    let mut seen = BTreeSet::new();
    chosen
        .into_iter()
        .filter(|d| seen.insert(d.name.clone()))
        .map(item)
        .collect()
}

fn item(d: &NameDecl) -> CompletionItem {
    let kind = match d.kind {
        NameKind::Var | NameKind::Local | NameKind::Parameter => CompletionItemKind::VARIABLE,
        NameKind::PlayerVar | NameKind::Field => CompletionItemKind::FIELD,
        NameKind::Enum => CompletionItemKind::ENUM,
        NameKind::EnumValue => CompletionItemKind::ENUM_MEMBER,
        NameKind::Kind => CompletionItemKind::CLASS,
        NameKind::Instance | NameKind::Die => CompletionItemKind::CONSTANT,
        NameKind::Table | NameKind::Record => CompletionItemKind::STRUCT,
        NameKind::Def | NameKind::Effect | NameKind::Phase => CompletionItemKind::FUNCTION,
        NameKind::Action => CompletionItemKind::METHOD,
    };
    plain(&d.name, kind, &super::features::summary(d))
}

fn plain(label: &str, kind: CompletionItemKind, detail: &str) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: Some(detail.to_string()),
        ..Default::default()
    }
}
