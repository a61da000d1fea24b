//! The golden-file part of `meeple test`: compare a file's goldens with what it now makes, write
//! the missing ones, and accept changes with `--accept` or one by one with `--review`.

use super::junit::Case;
use super::TestArgs;
use crate::golden::{self, Golden};
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Tests passed and failed, each by name (for `--junit`).
#[derive(Debug, Default, Clone)]
pub(super) struct Tally {
    /// Every test, in the order it ran.
    pub cases: Vec<Case>,
}

impl Tally {
    /// Records a test that passed.
    pub(super) fn pass(&mut self, name: impl Into<String>) {
        self.cases.push(Case {
            name: name.into(),
            failure: None,
        });
    }

    /// Records a test that failed: a one-line message and the whole text.
    pub(super) fn fail(&mut self, name: impl Into<String>, message: &str, text: String) {
        self.cases.push(Case {
            name: name.into(),
            failure: Some((message.to_string(), text)),
        });
    }

    /// Tests that passed.
    pub(super) fn passed(&self) -> usize {
        self.cases.len() - self.failed()
    }

    /// Tests that failed.
    pub(super) fn failed(&self) -> usize {
        self.cases.iter().filter(|c| c.failure.is_some()).count()
    }
}

/// How changed goldens are taken: all at once, by asking, or not at all.
pub(super) struct Review {
    accept_all: bool,
    ask: bool,
    /// Set once the person answers "accept all the rest" or "quit reviewing".
    decided: Option<bool>,
    /// True once some golden differed and was left as it was.
    pending: bool,
    /// Missing goldens fail instead of being written (`CI` is set).
    strict: bool,
    color: bool,
}

impl Review {
    /// The review asked for by `args`.
    pub(super) fn new(args: &TestArgs) -> Review {
        Review {
            accept_all: args.accept,
            ask: args.review,
            decided: None,
            pending: false,
            strict: std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false"),
            color: io::stdout().is_terminal() && !super::no_color(),
        }
    }

    /// True if some golden differed and was neither accepted nor reviewed.
    pub(super) fn pending_changes(&self) -> bool {
        self.pending
    }

    /// Asks whether to accept a change; answers are read from stdin, one line each.
    fn accept(&mut self, name: &str, out: &mut dyn Write) -> io::Result<bool> {
        if self.accept_all {
            return Ok(true);
        }
        if let Some(all) = self.decided {
            return Ok(all);
        }
        if !self.ask {
            return Ok(false);
        }
        loop {
            write!(
                out,
                "Accept `{name}`? [a]ccept, [r]eject, [A]ccept all the rest, [q]uit reviewing: "
            )?;
            out.flush()?;
            let mut line = String::new();
            if io::stdin().lock().read_line(&mut line)? == 0 {
                writeln!(out)?;
                self.decided = Some(false);
                return Ok(false);
            }
            if !io::stdin().is_terminal() {
                // A piped answer is not echoed: end the question's line ourselves.
                writeln!(out, "{}", line.trim())?;
            }
            match line.trim() {
                "a" | "accept" | "y" | "yes" => return Ok(true),
                "r" | "reject" | "n" | "no" | "" => return Ok(false),
                "A" => {
                    self.decided = Some(true);
                    return Ok(true);
                }
                "q" | "quit" => {
                    self.decided = Some(false);
                    return Ok(false);
                }
                other => writeln!(out, "`{other}`: type a, r, A or q.")?,
            }
        }
    }
}

/// Compares the goldens of `file` with what it makes now, printing a line for each that is new,
/// changed or gone.
pub(super) fn compare(
    file: &Path,
    args: &TestArgs,
    review: &mut Review,
    out: &mut dyn Write,
) -> io::Result<Tally> {
    let folder = golden::folder_of(file);
    let goldens = golden::goldens_of(file, &args.variants, args.seed);
    let mut tally = Tally::default();
    let mut matching = 0;
    for g in &goldens {
        let path = folder.join(format!("{}.snap", g.name));
        let stored = std::fs::read_to_string(&path).ok();
        let stored_contents = stored.as_deref().map(golden::contents_of_snap);
        match stored_contents {
            Some(Some(old)) if golden::same_contents(old, &g.contents) => {
                matching += 1;
                tally.pass(format!("golden `{}`", shown(&path)));
                remove_if_present(&pending_path(&path));
            }
            None if review.strict && !review.accept_all => {
                let line = format!(
                    "golden `{}` is missing (under CI it is not written: run `meeple test` where you work and commit it)",
                    shown(&path)
                );
                writeln!(out, "  FAIL  {line}")?;
                tally.fail(format!("golden `{}`", shown(&path)), &line, line.clone());
            }
            None => {
                write_golden(&path, g)?;
                tally.pass(format!("golden `{}`", shown(&path)));
                writeln!(out, "  new   golden `{}` written", shown(&path))?;
            }
            Some(old) => {
                let old = old.unwrap_or("");
                writeln!(out, "  FAIL  golden `{}` differs:", shown(&path))?;
                let diff = golden::diff(old, &g.contents, 3);
                write!(out, "{}", painted(&diff, review.color))?;
                let name = format!("golden `{}`", shown(&path));
                if review.accept(&g.name, out)? {
                    write_golden(&path, g)?;
                    remove_if_present(&pending_path(&path));
                    tally.pass(name);
                    writeln!(out, "  ok    golden `{}` accepted", shown(&path))?;
                } else {
                    // Beside it, for `cargo insta review` or a later `--accept`.
                    golden::write_text(&pending_path(&path), &golden::to_snap(g))?;
                    review.pending |= !review.ask;
                    tally.fail(name, "differs from what the rules make now", diff);
                }
            }
        }
    }
    if matching > 0 {
        writeln!(
            out,
            "  ok    {} in `{}` match",
            super::plural(matching, "golden file"),
            shown(&folder)
        )?;
    }
    for stale in stale_goldens(&folder, &goldens, args) {
        if args.accept {
            remove_if_present(&stale);
            writeln!(out, "  gone  golden `{}` deleted", shown(&stale))?;
        } else {
            writeln!(
                out,
                "  note  golden `{}` is no longer made (`--accept` deletes it)",
                shown(&stale)
            )?;
        }
    }
    Ok(tally)
}

/// Goldens in `folder` of the same file, variants and seed that `goldens` no longer includes
/// (a player count the game no longer allows).
fn stale_goldens(folder: &Path, goldens: &[Golden], args: &TestArgs) -> Vec<PathBuf> {
    let Some(first) = goldens.first() else {
        return Vec::new();
    };
    let Some(stem) = first.name.strip_suffix("@check") else {
        return Vec::new();
    };
    let seed_tag = golden::seed_tag(args.seed);
    let prefix = format!("{stem}@play_");
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut stale: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_str()?.strip_suffix(".snap")?.to_string();
            let count = name
                .strip_prefix(&prefix)?
                .strip_suffix(&format!("p{seed_tag}"))?;
            let ours = !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit());
            (ours && !goldens.iter().any(|g| g.name == name)).then(|| e.path())
        })
        .collect();
    stale.sort();
    stale
}

fn pending_path(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".new");
    PathBuf::from(p)
}

fn write_golden(path: &Path, g: &Golden) -> io::Result<()> {
    golden::write_text(path, &golden::to_snap(g))
}

fn remove_if_present(path: &Path) {
    let _ = std::fs::remove_file(path);
}

fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// A diff with removed lines red and added lines green, on a terminal.
fn painted(diff: &str, color: bool) -> String {
    let mut out = String::with_capacity(diff.len());
    for line in diff.lines() {
        let (start, end) = match line.as_bytes().first() {
            _ if !color => ("", ""),
            Some(b'-') if !line.starts_with("---") => ("\x1b[31m", "\x1b[0m"),
            Some(b'+') if !line.starts_with("+++") => ("\x1b[32m", "\x1b[0m"),
            Some(b'@') => ("\x1b[36m", "\x1b[0m"),
            _ => ("", ""),
        };
        out.push_str("        ");
        out.push_str(start);
        // A golden holds the rules' log lines: shown as text, the colours are ours.
        out.push_str(&crate::printable::escape(line));
        out.push_str(end);
        out.push('\n');
    }
    out
}
