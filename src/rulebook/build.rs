//! The chapters of a rulebook, in reading order: the game, its components, the setup, the flow
//! and its phases, the actions, the effects they name, the definitions, what is hidden, the end,
//! what always holds, and the variants played.

use super::decls::{self, action_section, def_lines, proc_section};
use super::stmt::{self, Line};
use super::survey::{bodies, hidden, invariants, shows, the_end, walk};
use super::{start, variants, Block, Book, Section, VariantFile};
use crate::diag::SourceMap;
use crate::ir::Program;
use crate::syntax::ast::{Decl, StmtKind};
use std::sync::Arc;

/// Lays out the book of a checked game: `decls` are its merged declarations.
pub fn book(
    decls: &[Decl],
    program: &Arc<Program>,
    sources: &SourceMap,
    variant_files: &[VariantFile],
) -> Book {
    // Enum values are written as the players see them and type them.
    let mut shown = std::collections::HashMap::new();
    for d in decls {
        if let Decl::Enum(e) = d {
            for (v, t) in e.values.iter().zip(&e.shown) {
                if let Some(t) = t.as_ref().and_then(|t| t.literal()) {
                    shown.insert(v.text.clone(), t);
                }
            }
        }
    }
    super::expr::with_shown(shown, || chapters(decls, program, sources, variant_files))
}

/// The book's chapters, in reading order.
fn chapters(
    decls: &[Decl],
    program: &Arc<Program>,
    sources: &SourceMap,
    variant_files: &[VariantFile],
) -> Book {
    let mut title = program.title.clone();
    if !program.variants.is_empty() {
        title.push_str(&format!(" — {}", program.variants.join(", ")));
    }
    let mut sections = vec![front(decls, program, sources, &title)];
    sections.push(components(decls, program, sources));
    sections.push(setup(decls));
    sections.extend(flow(decls, sources));
    sections.extend(actions(decls, sources));
    sections.extend(effects(decls, sources));
    sections.extend(definitions(decls, sources));
    sections.push(hidden(decls));
    sections.push(the_end(decls, sources));
    sections.extend(invariants(decls));
    sections.extend(shows(decls));
    sections.extend(variants::sections(variant_files, sources));
    Book { title, sections }
}

/// A section of the book.
pub(super) fn section(level: u8, heading: &str, blocks: Vec<Block>) -> Section {
    Section {
        level,
        heading: heading.to_string(),
        blocks,
    }
}

/// The title, player counts, seats, source, the designer's opening comments and how to read.
fn front(decls: &[Decl], program: &Program, sources: &SourceMap, title: &str) -> Section {
    let mut blocks = Vec::new();
    let players = format!("For {} players.", program.player_counts());
    blocks.push(Block::Para(players));
    if !program.seat_names.is_empty() {
        blocks.push(Block::Para(format!(
            "Seats, in playing order: {}.",
            program.seat_names.join(", ")
        )));
    }
    if let Some(s) = &program.source {
        blocks.push(Block::Para(format!("Source: {s}.")));
    }
    if program.always_ask {
        blocks.push(Block::Para(
            "Every choice is asked, even one with a single option.".to_string(),
        ));
    }
    for d in decls {
        if let Decl::Game(g) = d {
            blocks.extend(decls::header_notes(sources, g.span));
        }
    }
    blocks.push(Block::Para(
        "How to read this book: “you” is the player taking the action; names such as \
         `hand` or `round` are written as the game shows them; ÷ divides and rounds down, and \
         mod is the remainder; a [value] inside a quoted text is filled in during play."
            .to_string(),
    ));
    section(1, title, blocks)
}

fn components(decls: &[Decl], program: &Arc<Program>, sources: &SourceMap) -> Section {
    let mut blocks = Vec::new();
    let dice: Vec<String> = decls
        .iter()
        .filter_map(|d| match d {
            Decl::Die(d) => Some(decls::die_item(d)),
            _ => None,
        })
        .collect();
    if !dice.is_empty() {
        blocks.push(Block::Para("Dice:".to_string()));
        blocks.push(Block::Items(dice));
    }
    let enums: Vec<String> = decls
        .iter()
        .filter_map(|d| match d {
            Decl::Enum(e) => Some(decls::enum_item(e)),
            Decl::Record(r) => Some(decls::record_item(r)),
            _ => None,
        })
        .collect();
    if !enums.is_empty() {
        blocks.push(Block::Para("Kinds of value:".to_string()));
        blocks.push(Block::Items(enums));
    }
    for d in decls {
        if let Decl::Table(t) = d {
            blocks.extend(decls::table_blocks(t, sources));
        }
    }
    for d in decls {
        if let Decl::Kind(k) = d {
            let columns = decls::by_index(k);
            let table = if columns.is_empty() {
                None
            } else {
                start::instances(program, &k.name.text, &columns)
            };
            blocks.extend(decls::kind_blocks(k, sources, table.is_some()));
            if let Some((head, rows)) = table {
                blocks.push(Block::Para(format!(
                    "The {} one by one, as a game with {} begins:",
                    super::expr::plural(&k.name.text),
                    start::players_words(program.min_players)
                )));
                blocks.push(Block::Table { head, rows });
            }
        }
    }
    let vars = |per_player: bool| -> Vec<Line> {
        decls
            .iter()
            .filter_map(|d| match d {
                Decl::Var(v) if v.per_player == per_player => Some(decls::var_lines(v, sources)),
                _ => None,
            })
            .flatten()
            .collect()
    };
    let (global, each) = (vars(false), vars(true));
    if !global.is_empty() {
        blocks.push(Block::Para("On the table (one for the game):".to_string()));
        blocks.push(Block::Tree(global));
    }
    if !each.is_empty() {
        blocks.push(Block::Para("Each player has:".to_string()));
        blocks.push(Block::Tree(each));
    }
    if let Some((head, rows)) = start::sizes(program) {
        blocks.push(Block::Para(format!(
            "At the start of play (where the game first waits for a decision; seed {}), by \
             player count: how many of each kind, and how many items each list holds.",
            start::SEED
        )));
        blocks.push(Block::Table { head, rows });
    }
    if blocks.is_empty() {
        blocks.push(Block::Para("No components.".to_string()));
    }
    section(2, "Components", blocks)
}

fn setup(decls: &[Decl]) -> Section {
    let body = decls.iter().find_map(|d| match d {
        Decl::Setup(b) => Some(&b.body),
        _ => None,
    });
    let blocks = match body {
        Some(b) => vec![Block::Steps(stmt::block(b, 0))],
        None => vec![Block::Para("No setup: play begins at once.".to_string())],
    };
    section(2, "Setup", blocks)
}

fn flow(decls: &[Decl], sources: &SourceMap) -> Vec<Section> {
    let mut out = Vec::new();
    let mut blocks = vec![Block::Para(
        "The game runs these steps; when they are done, the game ends.".to_string(),
    )];
    for d in decls {
        if let Decl::Flow(f) = d {
            blocks.extend(decls::notes_block(sources, f.keyword.span));
            blocks.push(Block::Steps(stmt::block(&f.body, 0)));
        }
    }
    out.push(section(2, "How play goes", blocks));
    for d in decls {
        if let Decl::Phase(p) = d {
            out.push(proc_section(p, true, sources));
        }
    }
    out
}

fn actions(decls: &[Decl], sources: &SourceMap) -> Vec<Section> {
    // Every `turn` of the rules: where it stands and the actions it offers (none: all).
    let mut turns: Vec<(String, Vec<String>)> = Vec::new();
    for (place, body) in bodies(decls) {
        walk(body, &mut |s| {
            if let StmtKind::Turn { only, .. } | StmtKind::Window { only, .. } = &s.kind {
                let only = only.iter().map(|n| n.text.clone()).collect();
                if !turns.iter().any(|(p, o)| *p == place && *o == only) {
                    turns.push((place.clone(), only));
                }
            }
        });
    }
    let restricted = turns.iter().any(|(_, only)| !only.is_empty());
    let list: Vec<Section> = decls
        .iter()
        .filter_map(|d| match d {
            Decl::Action(a) => {
                let mut s = action_section(a, sources);
                if restricted {
                    s.blocks
                        .insert(1, Block::Para(offered(&a.name.text, &turns)));
                }
                Some(s)
            }
            _ => None,
        })
        .collect();
    if list.is_empty() {
        return Vec::new();
    }
    let mut out = vec![section(
        2,
        "Actions",
        vec![Block::Para(
            "On a turn the player takes one action: the game offers only those allowed at \
             that moment. A move is typed as the action's name followed by its choices, and \
             every player sees it."
                .to_string(),
        )],
    )];
    out.extend(list);
    out
}

/// Where an action is offered, when some turns offer only some actions.
fn offered(action: &str, turns: &[(String, Vec<String>)]) -> String {
    let places: Vec<String> = turns
        .iter()
        .filter(|(_, only)| only.is_empty() || only.iter().any(|o| o == action))
        .map(|(place, only)| {
            let others: Vec<&str> = only
                .iter()
                .map(String::as_str)
                .filter(|o| *o != action)
                .collect();
            match (only.is_empty(), others.is_empty()) {
                (true, _) => format!("on a turn in {place}, among every action"),
                (false, true) => format!("on a turn in {place}, alone"),
                (false, false) => format!("on a turn in {place}, beside {}", others.join(", ")),
            }
        })
        .collect();
    if places.is_empty() {
        "Offered: on no turn of the rules.".to_string()
    } else {
        format!("Offered: {}.", places.join("; "))
    }
}

fn effects(decls: &[Decl], sources: &SourceMap) -> Vec<Section> {
    let list: Vec<Section> = decls
        .iter()
        .filter_map(|d| match d {
            Decl::Effect(p) => Some(proc_section(p, false, sources)),
            _ => None,
        })
        .collect();
    if list.is_empty() {
        return Vec::new();
    }
    let mut out = vec![section(
        2,
        "Effects",
        vec![Block::Para(
            "Steps that the rules above carry out by name: “name of a and b” carries out the steps headed “name of x and y”, with a as x and b as y.".to_string(),
        )],
    )];
    out.extend(list);
    out
}

fn definitions(decls: &[Decl], sources: &SourceMap) -> Vec<Section> {
    let lines: Vec<Line> = decls
        .iter()
        .filter_map(|d| match d {
            Decl::Def(d) => Some(def_lines(d, sources)),
            _ => None,
        })
        .flatten()
        .collect();
    if lines.is_empty() {
        return Vec::new();
    }
    vec![section(
        2,
        "Definitions",
        vec![
            Block::Para("Values the rules compute, by name.".to_string()),
            Block::Tree(lines),
        ],
    )]
}
