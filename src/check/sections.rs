//! `section "Heading" { ... }`: the entries views draw under a heading. What is written in a
//! section was declared as at top level (the parser flattened it); here each marker is checked
//! and its variables and `show`s found in the program, in the order written.
//!
//! Refused: a heading that is not a plain, non-blank text (`section-heading`), two sections with
//! one heading (`section-duplicate`), a section written in another (`section-nested`), a
//! declaration views do not draw in a section (`section-not-view`), and a section with nothing
//! in it (`section-empty`). A section drawn `as table` must hold lists only
//! (`section-table-not-list`): it draws them side by side, a row per position.

use super::{ast, Checker};
use crate::diag::{Diagnostic, Span};
use crate::ir::{self, SectionEntry};
use std::collections::HashMap;

/// Checks every section marker and puts the sections in the program.
pub(super) fn run(c: &mut Checker) {
    let markers: Vec<&ast::SectionDecl> = c
        .merged
        .decls
        .iter()
        .filter_map(|d| match d {
            ast::Decl::Section(s) => Some(s),
            _ => None,
        })
        .collect();
    if markers.is_empty() {
        return;
    }
    let mut seen: HashMap<String, Span> = HashMap::new();
    let mut sections: Vec<ir::Section> = Vec::new();
    let mut found = Vec::new();
    for s in markers {
        found.extend(problems(s, &mut seen));
        let heading = s.heading.literal().unwrap_or_default();
        let entries: Vec<SectionEntry> = s
            .entries
            .iter()
            .filter_map(|e| entry(&c.program, e))
            .collect();
        if let Some(table) = s.table {
            found.extend(not_lists(c, s, table));
        }
        // An entry is drawn under the last heading that holds it: a variant may move a
        // variable of its base under a heading of its own (`replace var` in its section).
        for earlier in &mut sections {
            earlier.entries.retain(|e| !entries.contains(e));
        }
        sections.push(ir::Section {
            heading,
            entries,
            table: s.table.is_some(),
        });
    }
    for d in found {
        c.error(d);
    }
    c.program.sections = sections;
}

/// What is wrong with one section: `seen` holds the headings met before it.
fn problems(s: &ast::SectionDecl, seen: &mut HashMap<String, Span>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let at = s.heading.span;
    match s.heading.literal() {
        Some(h) if !h.trim().is_empty() => {
            if let Some(first) = seen.get(&h) {
                out.push(
                    Diagnostic::error(
                        "section-duplicate",
                        format!("a second section headed `{h}`"),
                        at,
                    )
                    .with_label("this heading is taken")
                    .with_secondary(*first, "first used here")
                    .with_help(
                        "write the entries in the first section, or give this one another heading",
                    ),
                );
            } else {
                seen.insert(h, at);
            }
        }
        Some(_) => out.push(
            Diagnostic::error("section-heading", "a section's heading is blank", at)
                .with_label("views draw this as the heading")
                .with_help("name what the section groups: `section \"Scores\" { ... }`"),
        ),
        None => out.push(
            Diagnostic::error(
                "section-heading",
                "a section's heading has a part worked out in play",
                at,
            )
            .with_label("a `{...}` part here")
            .with_help(
                "write the heading as plain words; a value that changes belongs in a `show` \
                 inside the section",
            ),
        ),
    }
    if let Some(outer) = s.within {
        out.push(
            Diagnostic::error(
                "section-nested",
                "a section written inside another section",
                at,
            )
            .with_label("views draw one level of headings")
            .with_secondary(outer, "inside this section")
            .with_help("close the outer section first, and write this one after it"),
        );
    }
    for (span, what) in &s.others {
        out.push(
            Diagnostic::error(
                "section-not-view",
                format!(
                    "{} `{what}` inside a section: views draw only variables and `show`s under a heading",
                    if what.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }
                ),
                *span,
            )
            .with_label("not drawn by a view")
            .with_secondary(at, "in this section")
            .with_help("write it outside the section; a section holds `var`, `player var`, `show` and `player show`"),
        );
    }
    if s.entries.is_empty() && s.others.is_empty() {
        out.push(
            Diagnostic::error("section-empty", "a section with nothing in it", at)
                .with_label("no variable or `show` to draw under this heading")
                .with_help(
                    "write the variables and `show`s it groups between its braces, or remove it",
                ),
        );
    }
    out
}

/// The entries of a section drawn `as table` (written at `table`) that are not lists: a table
/// draws a row per position, so a number or a map has no column there.
fn not_lists(c: &Checker, s: &ast::SectionDecl, table: Span) -> Vec<Diagnostic> {
    let program = &c.program;
    let mut out = Vec::new();
    for e in &s.entries {
        let ty = match entry(program, e) {
            Some(SectionEntry::Global(i)) => Some(program.globals[i].ty.clone()),
            Some(SectionEntry::PlayerVar(i)) => Some(program.player_vars[i].ty.clone()),
            Some(SectionEntry::Show(i)) => program.shows[i].ty.clone(),
            None => continue,
        };
        let what = match ty {
            Some(ir::Type::List(_) | ir::Type::Error) => continue,
            Some(t) => c.type_name(&t),
            None => "a text".to_string(),
        };
        out.push(
            Diagnostic::error(
                "section-table-not-list",
                format!(
                    "`{}` is {what}, not a list: a section drawn as a table holds lists only",
                    e.name.text
                ),
                e.name.span,
            )
            .with_label("no column of its own")
            .with_secondary(table, "drawn as a table, a row per position")
            .with_help(
                "write it in a section of its own, or outside any; a table draws its lists side by \
                 side, the first elements on the first row",
            ),
        );
    }
    out
}

/// The program's entry a section names, if it was declared (a variant may have removed it).
fn entry(program: &ir::Program, e: &ast::SectionEntry) -> Option<SectionEntry> {
    let name = e.name.text.as_str();
    if e.show {
        let i = program
            .shows
            .iter()
            .position(|s| s.per_player == e.per_player && s.name == name)?;
        return Some(SectionEntry::Show(i));
    }
    if e.per_player {
        let i = program.player_vars.iter().position(|v| v.name == name)?;
        Some(SectionEntry::PlayerVar(i))
    } else {
        let i = program.globals.iter().position(|v| v.name == name)?;
        Some(SectionEntry::Global(i))
    }
}
