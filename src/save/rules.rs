//! The rules a resumed game is played under: the files the save names when they are still the
//! ones it was played with, else the texts the save carries, saying why.

use super::SaveFile;
use crate::load::{load, load_with, Loaded};
use std::cell::Cell;
use std::io;
use std::path::{Path, PathBuf};

/// Where the rules of a resumed game came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesFrom {
    /// The files the save names, as they are on disk (the same as when it was saved, or a save
    /// that carries no texts).
    Files,
    /// The texts the save carries, because the files are not there or have changed: why, in a
    /// sentence that names the file.
    Saved(String),
}

impl SaveFile {
    /// Loads the rules to resume this game under: the files it names if they are the ones it
    /// was played with (or if it carries no texts, as saves before them), else the texts it
    /// carries, with the reason. A save moved alone to another folder or machine reopens.
    pub fn load_rules(&self) -> (Loaded, RulesFrom) {
        let variants: Vec<PathBuf> = self.variants.iter().map(PathBuf::from).collect();
        let on_disk = load(Path::new(&self.rules), &variants);
        if self.texts.is_empty() || self.texts.len() != self.sources.len() {
            return (on_disk, RulesFrom::Files);
        }
        let now = super::source_hashes(&on_disk.sources);
        let unread = on_disk
            .diagnostics
            .0
            .iter()
            .find(|d| d.code == "file-not-found" || d.code == "not-utf8");
        let why = match unread {
            None if now == self.sources && on_disk.program.is_some() => {
                return (on_disk, RulesFrom::Files)
            }
            Some(d) => crate::printable::escape(&d.message).into_owned(),
            None => {
                let changed = (0..on_disk.sources.len())
                    .find(|&i| self.sources.get(i) != now.get(i))
                    .map(|i| {
                        on_disk
                            .sources
                            .file(crate::diag::FileId(i as u32))
                            .name
                            .clone()
                    })
                    .unwrap_or_else(|| self.rules.clone());
                format!(
                    "`{}` has changed since the game was saved",
                    crate::printable::escape(&changed)
                )
            }
        };
        (self.load_saved_texts(&variants), RulesFrom::Saved(why))
    }

    /// Loads the rules from the texts the save carries. The loader asks for the files in the
    /// order it read them when the game was played, and these texts are those files: the
    /// n-th file asked for is the n-th text.
    fn load_saved_texts(&self, variants: &[PathBuf]) -> Loaded {
        let next = Cell::new(0usize);
        let read = |_: &Path| -> io::Result<String> {
            let i = next.get();
            next.set(i + 1);
            self.texts.get(i).cloned().ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::NotFound,
                    "the save carries no more rules files than this",
                )
            })
        };
        load_with(Path::new(&self.rules), variants, &read)
    }
}
