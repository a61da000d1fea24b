//! What each variant played changes in its base game: the parts it adds, replaces and removes,
//! each in words, with the designer's comments above it.

use super::decls::{self, action_section, def_lines, proc_section};
use super::expr::{expr, text_inner};
use super::stmt;
use super::{Block, Section, VariantFile};
use crate::diag::SourceMap;
use crate::syntax::ast::{self, Decl, Item, Patch};

/// The variant files among `files`, in the order their titles were applied.
pub fn in_order(titles: &[String], files: Vec<ast::File>) -> Vec<VariantFile> {
    let mut found: Vec<Option<VariantFile>> = files
        .into_iter()
        .filter_map(|f| {
            let header = f.items.iter().find_map(|i| match i {
                Item::Decl {
                    decl: Decl::Variant(v),
                    ..
                } => Some(v.clone()),
                _ => None,
            })?;
            Some(Some(VariantFile {
                header,
                items: f.items,
            }))
        })
        .collect();
    let mut out = Vec::new();
    for t in titles {
        let pos = found.iter().position(|f| {
            f.as_ref()
                .is_some_and(|f| f.header.title.literal().as_deref() == Some(t.as_str()))
        });
        if let Some(f) = pos.and_then(|i| found[i].take()) {
            out.push(f);
        }
    }
    out
}

/// The "Variants" chapter: one section per variant, in the order applied.
pub fn sections(files: &[VariantFile], sources: &SourceMap) -> Vec<Section> {
    if files.is_empty() {
        return Vec::new();
    }
    let mut out = vec![Section {
        level: 2,
        heading: "Variants played".to_string(),
        blocks: vec![Block::Para(
            "This book describes the game with these variants applied. Each changes its base \
             game as follows; everything else is as in the base game."
                .to_string(),
        )],
    }];
    for f in files {
        out.extend(variant(f, inner_base(f, files, sources), sources));
    }
    out
}

/// The variant among `files` that `f` names as its base, when its base is a variant played too
/// (variants stack), so that the book says it builds on that one rather than on the game.
fn inner_base<'a>(
    f: &VariantFile,
    files: &'a [VariantFile],
    sources: &SourceMap,
) -> Option<&'a VariantFile> {
    let base = f.header.base.as_ref()?.literal()?;
    let path_of =
        |v: &VariantFile| std::path::PathBuf::from(&sources.file(v.header.span.file).name);
    let own = path_of(f);
    // The loader resolves a base against the variant's folder, as here.
    let named = own.parent().unwrap_or(std::path::Path::new(".")).join(base);
    files
        .iter()
        .find(|v| !std::ptr::eq(*v, f) && crate::load::same_file(&path_of(v), &named))
}

fn variant(f: &VariantFile, inner: Option<&VariantFile>, sources: &SourceMap) -> Vec<Section> {
    let title = text_inner(&f.header.title);
    let mut blocks = decls::header_notes(sources, f.header.span);
    match (&f.header.base, inner) {
        (Some(base), Some(inner)) => blocks.push(Block::Para(format!(
            "It builds on the variant {} in `{}`, described above: its changes come first, \
             and these are made to the game as that variant left it.",
            text_inner(&inner.header.title),
            text_inner(base)
        ))),
        (Some(base), None) => blocks.push(Block::Para(format!(
            "A variant of the game in `{}`.",
            text_inner(base)
        ))),
        (None, _) => {}
    }
    if !f.header.excludes.is_empty() {
        let ex: Vec<String> = f
            .header
            .excludes
            .iter()
            .map(|e| format!("`{}`", text_inner(e)))
            .collect();
        blocks.push(Block::Para(format!(
            "It cannot be played together with {}.",
            ex.join(" or ")
        )));
    }
    let mut changes = Vec::new();
    let mut details = Vec::new();
    for item in &f.items {
        match item {
            Item::Remove { kind, name, span } => {
                // A part a game has once is named by its keyword alone: "removes the goal".
                let removed = if kind.is_singleton() {
                    format!("the {}", kind.keyword())
                } else {
                    format!("{} {}", kind.keyword(), name.text)
                };
                changes.push(format!("removes {removed}"));
                let notes = decls::notes_block(sources, *span);
                if !notes.is_empty() {
                    details.push(Section {
                        level: 4,
                        heading: format!("Removes {removed}"),
                        blocks: notes,
                    });
                }
            }
            Item::Decl {
                patch: Some((patch, _)),
                decl,
            } => {
                let verb = match patch {
                    Patch::Add => "adds",
                    Patch::Replace => "replaces",
                };
                let Some((kind, name)) = decl.part() else {
                    continue;
                };
                let what = if kind.is_singleton() {
                    format!("the {}", kind.keyword())
                } else {
                    format!("{} {}", kind.keyword(), name.text)
                };
                changes.push(format!("{verb} {what}"));
                let mut heading = format!("{verb} {what}");
                if let Some(c) = heading.get_mut(..1) {
                    c.make_ascii_uppercase();
                }
                details.push(Section {
                    level: 4,
                    heading,
                    blocks: part_blocks(decl, name.span, sources),
                });
            }
            Item::Decl { patch: None, .. } => {} // the header and the variant's scenarios
        }
    }
    if changes.is_empty() {
        blocks.push(Block::Para("It changes nothing.".to_string()));
    } else {
        blocks.push(Block::Para("It:".to_string()));
        blocks.push(Block::Items(changes));
    }
    let mut out = vec![Section {
        level: 3,
        heading: title,
        blocks,
    }];
    out.extend(details);
    out
}

/// A part as a variant writes it: its notes, then the part in words.
fn part_blocks(decl: &Decl, name: crate::diag::Span, sources: &SourceMap) -> Vec<Block> {
    let mut blocks = decls::notes_block(sources, name);
    match decl {
        Decl::Var(v) => blocks.push(Block::Items(vec![decls::var_item(v, sources)])),
        Decl::Kind(k) => blocks.extend(
            decls::kind_blocks(k, sources, false)
                .into_iter()
                .skip_while(
                    |b| matches!(b, Block::Note(_)), // the notes are above already
                ),
        ),
        Decl::Enum(e) => blocks.push(Block::Items(vec![decls::enum_item(e)])),
        Decl::Record(r) => blocks.push(Block::Items(vec![decls::record_item(r)])),
        Decl::Die(d) => blocks.push(Block::Items(vec![decls::die_item(d)])),
        Decl::Table(t) => blocks.extend(
            decls::table_blocks(t, sources)
                .into_iter()
                .filter(|b| !matches!(b, Block::Note(_))),
        ),
        Decl::Def(d) => {
            let lines = def_lines(d, sources)
                .into_iter()
                .filter(|l| l.depth == 0)
                .collect();
            blocks.push(Block::Tree(lines));
        }
        Decl::Effect(p) | Decl::Phase(p) => {
            let s = proc_section(p, matches!(decl, Decl::Phase(_)), sources);
            blocks.extend(
                s.blocks
                    .into_iter()
                    .filter(|b| !matches!(b, Block::Note(_))),
            );
        }
        Decl::Action(a) => {
            let s = action_section(a, sources);
            blocks.extend(
                s.blocks
                    .into_iter()
                    .filter(|b| !matches!(b, Block::Note(_))),
            );
        }
        Decl::Flow(b) | Decl::Setup(b) => blocks.push(Block::Steps(stmt::block(&b.body, 0))),
        Decl::Score(s) => blocks.push(Block::Para(format!(
            "Score: each player {} scores {}.",
            s.player.text,
            expr(&s.body)
        ))),
        Decl::Goal(s) => blocks.push(Block::Para(format!(
            "Goal: each player {} plays for {}.",
            s.player.text,
            expr(&s.body)
        ))),
        Decl::Winners(w) => blocks.push(Block::Para(format!("Winners: {}.", expr(&w.body)))),
        Decl::Invariant(i) => blocks.push(Block::Items(vec![decls::invariant_item(i)])),
        Decl::Show(s) => blocks.push(Block::Items(vec![decls::show_item(s)])),
        Decl::Game(_) | Decl::Variant(_) | Decl::Scenario(_) | Decl::Section(_) => {}
    }
    blocks
}
