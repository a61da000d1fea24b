//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};

/// Every `.rules` file under `dir`, recursively, in a stable order.
pub fn rules_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect(dir, &mut out);
    out
}

/// Every `.rules` file under the crate's `rules/` folder.
pub fn all_rules() -> Vec<PathBuf> {
    rules_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"))
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "rules") {
            out.push(p);
        }
    }
}
