//! Golden files of a designer's own rules: the check report and a seeded bot game for every
//! player count, kept beside the rules in insta's `.snap` format so that `meeple test` (or
//! `cargo insta review`, where it is installed) can show what a rule change did.
//!
//! A rules file `dir/game.rules` keeps its goldens in `dir/snapshots/`, named
//! `game@check.snap` and `game@play_3p.snap` (with `+variant` after the stem for each stacked
//! variant and `_seedN` after the kind for a seed other than 1). Paths inside a golden are
//! relative to the rules file's folder, so a golden does not depend on where `meeple test` runs.

use crate::diag::{render_all, RenderStyle};
use crate::load::{load_with, read_rules_file, Loaded};
use crate::sim::{random_game, transcript};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// The seed of golden bot games unless another is asked for.
pub const DEFAULT_SEED: u64 = 1;

/// One golden: where it lives and what it should hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Golden {
    /// The snapshot's name, such as `game@play_3p` (the file is `NAME.snap`).
    pub name: String,
    /// What the snapshot is of, in words (kept in the file's header).
    pub description: String,
    /// The snapshot's text.
    pub contents: String,
}

/// Where the goldens of `rules` live: `snapshots/` beside it.
pub fn folder_of(rules: &Path) -> PathBuf {
    rules
        .parent()
        .map(|p| p.join("snapshots"))
        .unwrap_or_else(|| PathBuf::from("snapshots"))
}

/// The goldens of a rules file with `variants` stacked on it: its check report, then (if it
/// checks) a bot game for every player count with `seed`.
pub fn goldens_of(rules: &Path, variants: &[PathBuf], seed: u64) -> Vec<Golden> {
    let dir = rules.parent().unwrap_or(Path::new("")).to_path_buf();
    let file_name = PathBuf::from(rules.file_name().unwrap_or_default());
    let relative: Vec<PathBuf> = variants.iter().map(|v| relative_to(v, &dir)).collect();
    // Read every file through the rules file's folder, so names in the report are relative to it.
    let read = |p: &Path| {
        if p.is_absolute() {
            read_rules_file(p)
        } else {
            read_rules_file(&dir.join(p))
        }
    };
    let loaded = load_with(&file_name, &relative, &read);
    let stem = snapshot_stem(rules, variants);
    let seed_tag = seed_tag(seed);
    // The check report does not depend on the seed: one name for it whatever the seed.
    let mut goldens = vec![Golden {
        name: format!("{stem}@check"),
        description: format!("check report of {}", file_name.display()),
        contents: check_report(&loaded),
    }];
    let Some(program) = loaded.program else {
        return goldens;
    };
    let program = Arc::new(program);
    for players in program.min_players..=program.max_players {
        let contents = match random_game(program.clone(), players, seed) {
            Ok(game) => transcript(&game),
            Err(e) => format!("the game failed: {e}\n"),
        };
        goldens.push(Golden {
            name: format!("{stem}@play_{players}p{seed_tag}"),
            description: format!("bot game of {players} players, seed {seed}"),
            contents,
        });
    }
    goldens
}

/// Writes every golden of a rules file (see [`goldens_of`]) into its folder, creating it; the
/// paths written.
pub fn write_all(rules: &Path, variants: &[PathBuf], seed: u64) -> std::io::Result<Vec<PathBuf>> {
    let folder = folder_of(rules);
    let mut written = Vec::new();
    for g in goldens_of(rules, variants, seed) {
        let path = folder.join(format!("{}.snap", g.name));
        write_text(&path, &to_snap(&g))?;
        written.push(path);
    }
    Ok(written)
}

/// Writes `text` to `path` through a temporary file renamed over it (a golden is never half
/// written), creating the folder if needed. Only a golden file is replaced
/// ([`crate::files::check_target`]).
pub fn write_text(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    crate::files::write_output(path, text, crate::files::Output::Golden, &[])
}

/// What a golden's name carries for `seed`: nothing for the default seed, else `_seedN`.
pub fn seed_tag(seed: u64) -> String {
    if seed == DEFAULT_SEED {
        String::new()
    } else {
        format!("_seed{seed}")
    }
}

/// The check report as a golden holds it: every diagnostic in plain text, then a summary line;
/// no trailing spaces (editors strip them).
pub fn check_report(loaded: &Loaded) -> String {
    let d = &loaded.diagnostics;
    let mut out = render_all(d, &loaded.sources, RenderStyle::plain());
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    match (d.error_count(), d.warning_count()) {
        (0, 0) => out.push_str("no problems"),
        (e, w) => out.push_str(&format!("{}, {}", count(e, "error"), count(w, "warning"))),
    }
    let mut text: String = out
        .lines()
        .map(|l| l.trim_end().to_string() + "\n")
        .collect();
    if text.is_empty() {
        text.push('\n');
    }
    text
}

/// The snapshot name's stem: the rules file's stem, then `+stem` for each stacked variant.
fn snapshot_stem(rules: &Path, variants: &[PathBuf]) -> String {
    let stem = |p: &Path| {
        p.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let mut name = stem(rules);
    for v in variants {
        name.push('+');
        name.push_str(&stem(v));
    }
    name
}

/// `path` relative to `dir` where both can be resolved, else `path` made absolute.
fn relative_to(path: &Path, dir: &Path) -> PathBuf {
    let (Ok(target), Ok(base)) = (path.canonicalize(), absolute_dir(dir).canonicalize()) else {
        return path.to_path_buf();
    };
    let t: Vec<Component> = target.components().collect();
    let b: Vec<Component> = base.components().collect();
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut rel = PathBuf::new();
    for _ in common..b.len() {
        rel.push("..");
    }
    for c in &t[common..] {
        rel.push(c);
    }
    rel
}

fn absolute_dir(dir: &Path) -> PathBuf {
    if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir.to_path_buf()
    }
}

/// The text of a `.snap` file holding `golden`, in insta's format (a YAML header between `---`
/// lines, then the contents).
pub fn to_snap(golden: &Golden) -> String {
    let mut s = String::from("---\nsource: meeple test\n");
    s.push_str(&format!(
        "description: {}\n",
        yaml_string(&golden.description)
    ));
    s.push_str("expression: snapshot\n---\n");
    s.push_str(&golden.contents);
    if !golden.contents.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// The contents of a `.snap` file's text (what follows its header), or `None` if it has none.
pub fn contents_of_snap(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---\n")?;
    Some(&rest[end + "\n---\n".len()..])
}

/// True if a golden's stored contents and fresh contents agree, as insta compares them: trailing
/// newlines do not count.
pub fn same_contents(stored: &str, fresh: &str) -> bool {
    stored.trim_end_matches('\n') == fresh.trim_end_matches('\n')
}

/// A quoted YAML string.
fn yaml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// A unified diff from `old` to `new`, with `context` lines around each change.
pub fn diff(old: &str, new: &str, context: usize) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(context)
        .header("golden", "now")
        .to_string()
}

/// Asserts, with insta, every golden of a rules file (kept in `snapshots/` beside it, the files
/// `meeple test` reads and writes): the one-line helper for designers who keep their rules in a
/// Rust crate with insta as a dev-dependency. The path is relative to the crate's root.
///
/// ```ignore
/// #[test]
/// fn my_game() {
///     meeple::assert_rules_snapshots!("rules/my_game.rules");
/// }
/// ```
#[macro_export]
macro_rules! assert_rules_snapshots {
    ($path:expr) => {
        $crate::assert_rules_snapshots!($path, seed = $crate::golden::DEFAULT_SEED)
    };
    ($path:expr, seed = $seed:expr) => {{
        let path = ::std::path::Path::new($path);
        let folder = ::std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join($crate::golden::folder_of(path));
        for golden in $crate::golden::goldens_of(path, &[], $seed) {
            let mut settings = ::insta::Settings::clone_current();
            settings.set_snapshot_path(&folder);
            settings.set_prepend_module_to_snapshot(false);
            settings.set_description(golden.description.clone());
            settings.bind(|| ::insta::assert_snapshot!(golden.name.as_str(), golden.contents));
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snap_text_round_trips_contents() {
        let g = Golden {
            name: "g@check".into(),
            description: "check report of \"g.rules\"".into(),
            contents: "no problems\n".into(),
        };
        let text = to_snap(&g);
        assert!(text.starts_with("---\nsource: meeple test\n"));
        assert_eq!(contents_of_snap(&text), Some("no problems\n"));
        assert!(contents_of_snap("no header").is_none());
    }

    #[test]
    fn trailing_newlines_do_not_count_but_lines_do() {
        assert!(same_contents("a\nb\n", "a\nb"));
        assert!(!same_contents("a\nb\n", "a\nc\n"));
        assert!(!same_contents("a\n\nb", "a\nb"));
    }

    #[test]
    fn names_carry_variants_and_seed() {
        let stem = snapshot_stem(
            Path::new("dir/game.rules"),
            &[PathBuf::from("dir/game/fast.rules")],
        );
        assert_eq!(stem, "game+fast");
        assert_eq!(
            folder_of(Path::new("dir/game.rules")),
            PathBuf::from("dir/snapshots")
        );
        assert_eq!(
            folder_of(Path::new("game.rules")),
            PathBuf::from("snapshots")
        );
    }

    #[test]
    fn diff_shows_both_sides() {
        let d = diff("a\nb\nc\n", "a\nx\nc\n", 1);
        assert!(d.contains("-b"), "{d}");
        assert!(d.contains("+x"), "{d}");
    }
}
