//! Paths in a save file: written relative to the save's folder, read back against it.

use std::io;
use std::path::{Component, Path, PathBuf};

/// `path` with `.` dropped and `x/..` folded, without asking the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

fn absolute(path: &Path) -> io::Result<PathBuf> {
    if path.is_absolute() {
        Ok(normalize(path))
    } else {
        Ok(normalize(&std::env::current_dir()?.join(path)))
    }
}

/// With `/` between components, whatever the platform.
fn slashed(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    match path.components().next() {
        Some(Component::RootDir) => format!("/{}", parts[1..].join("/")),
        _ => parts.join("/"),
    }
}

/// `file` (as this process opens it) relative to `folder`; absolute if they share no root.
pub(super) fn relative(folder: &Path, file: &str) -> io::Result<String> {
    let target = absolute(Path::new(file))?;
    let base = absolute(folder)?;
    let t: Vec<Component> = target.components().collect();
    let b: Vec<Component> = base.components().collect();
    if t.first() != b.first() {
        return Ok(slashed(&target));
    }
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c);
    }
    Ok(slashed(&out))
}

/// A path from a save in `folder`, as this process opens it.
pub(super) fn resolve(folder: &Path, stored: &str) -> String {
    let p = Path::new(stored);
    if p.is_absolute() {
        return stored.to_string();
    }
    let joined = normalize(&folder.join(p));
    if joined.as_os_str().is_empty() {
        return ".".to_string();
    }
    slashed(&joined)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_goes_there_and_back() {
        let rel = relative(Path::new("target/saves/x"), "rules/game.rules").unwrap();
        assert_eq!(rel, "../../../rules/game.rules");
        assert_eq!(
            resolve(Path::new("target/saves/x"), &rel),
            "rules/game.rules"
        );
        assert_eq!(relative(Path::new(""), "a.rules").unwrap(), "a.rules");
        assert_eq!(resolve(Path::new(""), "a.rules"), "a.rules");
        assert_eq!(
            resolve(Path::new("/tmp/s"), "../r/a.rules"),
            "/tmp/r/a.rules"
        );
        assert_eq!(resolve(Path::new("s"), "/abs/a.rules"), "/abs/a.rules");
    }
}
