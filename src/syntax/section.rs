//! `section "Heading" { ... }`: what is written in a section is declared exactly as at top level,
//! so the section is flattened once parsed: its marker, then what it holds as top-level items.
//! Every later stage (variants, the checker, the index, the rulebook) then sees ordinary items;
//! only the views read the marker, through the program's sections.

use super::ast::{Decl, Item, SectionDecl, SectionEntry};

/// `items` with every section's contents written after its marker, which records its entries
/// (the variables and `show`s), the other declarations written in it, and the section it is
/// written in, for the checker's errors.
pub fn flatten(items: Vec<Item>) -> Vec<Item> {
    // A file without sections, nearly every one, is returned as it came.
    let any = items.iter().any(|i| {
        matches!(
            i,
            Item::Decl {
                decl: Decl::Section(_),
                ..
            }
        )
    });
    if !any {
        return items;
    }
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        push(item, None, &mut out);
    }
    out
}

/// Adds `item` to `out`, flattened; `within` is the heading of the section it is written in.
fn push(item: Item, within: Option<crate::diag::Span>, out: &mut Vec<Item>) {
    let Item::Decl {
        patch,
        decl: Decl::Section(mut section),
    } = item
    else {
        out.push(item);
        return;
    };
    section.within = within;
    let inner = std::mem::take(&mut section.items);
    for i in &inner {
        note(&mut section, i);
    }
    // The outer section is named by its heading, in a nested one's error.
    let span = section.heading.span;
    out.push(Item::Decl {
        patch,
        decl: Decl::Section(section),
    });
    for i in inner {
        push(i, Some(span), out);
    }
}

/// Records an item written in `section`: an entry the views draw there, or another declaration.
fn note(section: &mut SectionDecl, item: &Item) {
    let (span, what) = match item {
        Item::Decl {
            decl: Decl::Var(v), ..
        } => {
            return section.entries.push(SectionEntry {
                name: v.name.clone(),
                per_player: v.per_player,
                show: false,
            })
        }
        Item::Decl {
            decl: Decl::Show(s),
            ..
        } => {
            return section.entries.push(SectionEntry {
                name: s.name.clone(),
                per_player: s.per_player,
                show: true,
            })
        }
        // A nested section is refused by its own marker (`within`), not as an "other".
        Item::Decl {
            decl: Decl::Section(_),
            ..
        } => return,
        Item::Remove { span, .. } => (*span, "remove"),
        Item::Decl { decl, .. } => (decl_span(decl).unwrap_or(section.span), decl_word(decl)),
    };
    section.others.push((span, what));
}

/// The word a declaration opens with, as the designer wrote it.
fn decl_word(decl: &Decl) -> &'static str {
    match decl {
        Decl::Game(_) => "game",
        Decl::Variant(_) => "variant",
        Decl::Enum(_) => "enum",
        Decl::Var(_) => "var",
        Decl::Kind(_) => "kind",
        Decl::Record(_) => "record",
        Decl::Die(_) => "die",
        Decl::Table(_) => "table",
        Decl::Def(_) => "def",
        Decl::Effect(_) => "effect",
        Decl::Action(_) => "action",
        Decl::Phase(_) => "phase",
        Decl::Flow(_) => "flow",
        Decl::Setup(_) => "setup",
        Decl::Score(_) => "score",
        Decl::Goal(_) => "goal",
        Decl::Winners(_) => "winners",
        Decl::Invariant(_) => "invariant",
        Decl::Scenario(_) => "scenario",
        Decl::Section(_) => "section",
        Decl::Show(_) => "show",
    }
}

/// Where a declaration other than a variable or a `show` is named, for a label.
fn decl_span(decl: &Decl) -> Option<crate::diag::Span> {
    match decl {
        Decl::Game(g) => Some(g.title.span),
        Decl::Variant(v) => Some(v.span),
        Decl::Scenario(s) => Some(s.span),
        Decl::Section(s) => Some(s.span),
        other => other.part().map(|(_, name)| name.span),
    }
}
