//! `meeple doc`: a rulebook drawn from the rules, for a playtester who does not read code.
//!
//! The book is built from the merged AST (what the rules say, in words: [`expr`] and [`stmt`]
//! render every expression and statement readably), the checked program (the components at the
//! start of a game, for every player count, found by starting one: [`start`]), the comments
//! written just above declarations (as notes: [`notes`]) and each variant's own file (what it
//! adds, replaces and removes: [`variants`]). [`build`] lays it out as a [`Book`] of sections
//! ([`survey`] the chapters that look at every rule at once: what is hidden, how it ends);
//! [`render`] prints a book as plain text or as a self-contained HTML page.

pub mod build;
pub mod decls;
pub mod expr;
pub mod notes;
pub mod render;
pub mod start;
pub mod stmt;
pub mod survey;
pub mod variants;

use crate::load::{load_merged_with, read_rules_file, Loaded};
use crate::syntax::ast;
use std::cell::Cell;
use std::path::{Path, PathBuf};

pub use stmt::Line;

/// A rulebook: a title and its sections in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Book {
    /// The game's title (with its variants).
    pub title: String,
    /// The sections, in reading order.
    pub sections: Vec<Section>,
}

/// One section of a rulebook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// 1 for the book's first section, 2 for a chapter, 3 for an entry inside one.
    pub level: u8,
    /// Its heading.
    pub heading: String,
    /// Its contents in order.
    pub blocks: Vec<Block>,
}

/// A piece of a section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// A paragraph of prose.
    Para(String),
    /// A bulleted list of short items.
    Items(Vec<String>),
    /// Steps of pseudo-code, nested by depth.
    Steps(Vec<Line>),
    /// Items of prose with items beneath them, nested by depth.
    Tree(Vec<Line>),
    /// The designer's comments, quoted.
    Note(Vec<String>),
    /// A table: a header row and rows of cells.
    Table {
        /// The column headings.
        head: Vec<String>,
        /// The rows, each as wide as the header.
        rows: Vec<Vec<String>>,
    },
}

/// A variant file as written: its header and its parts (for the differences it makes).
#[derive(Debug, Clone)]
pub struct VariantFile {
    /// Its header.
    pub header: ast::VariantDecl,
    /// Its items in source order.
    pub items: Vec<ast::Item>,
}

/// Loads a rules file with its variants from disk and draws its rulebook: the book if the
/// files check, and the load with its diagnostics (errors and warnings) either way.
pub fn rulebook(path: &Path, variants: &[PathBuf]) -> (Option<Book>, Loaded) {
    rulebook_with(path, variants, &read_rules_file)
}

/// Like [`rulebook`], reading files through `read` (for tests).
pub fn rulebook_with(
    path: &Path,
    variants: &[PathBuf],
    read: &dyn Fn(&Path) -> std::io::Result<String>,
) -> (Option<Book>, Loaded) {
    // Every file read adds one source, in the order read: ids 0 to reads - 1.
    let reads = Cell::new(0u32);
    let recording = |p: &Path| {
        let t = read(p)?;
        reads.set(reads.get() + 1);
        Ok(t)
    };
    let (mut loaded, merged) = load_merged_with(path, variants, &recording);
    let (Some(program), Some(merged)) = (loaded.program.take(), merged) else {
        return (None, loaded);
    };
    let program = std::sync::Arc::new(program);
    let mut files = Vec::new();
    for i in 0..reads.get() {
        let id = crate::diag::FileId(i);
        let text = loaded.sources.file(id).text.clone();
        if let Ok(file) = crate::syntax::parse(id, &text) {
            files.push(file);
        }
    }
    let variant_files = variants::in_order(&merged.variants, files);
    let book = build::book(&merged.decls, &program, &loaded.sources, &variant_files);
    (Some(book), loaded)
}

#[cfg(test)]
mod tests;
