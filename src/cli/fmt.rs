//! `meeple fmt [--check] FILE_OR_DIR...`: lays rules files out in the one canonical way.
//!
//! Without `--check` each file that changes is rewritten in place (a temporary file beside it,
//! renamed over it) and named; with `--check` nothing is written, and each file that would change
//! is named with its first differing lines. A file that does not parse is reported and left alone.

use super::{eprint_text, stderr_style, CliError};
use crate::diag::{render_all, Diagnostics, SourceMap};
use crate::syntax::format::{format, FormatError};
use clap::Args;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `meeple fmt`.
#[derive(Debug, Args)]
pub struct FmtArgs {
    /// Rules files, or folders: every `.rules` file under a folder.
    #[arg(value_name = "FILE_OR_DIR", required = true)]
    pub paths: Vec<PathBuf>,

    /// Change nothing: name the files that are not formatted, and exit with 1 if there are any.
    #[arg(long)]
    pub check: bool,
}

/// How many lines of each side a `--check` difference shows.
const DIFF_LINES: usize = 4;

/// Formats (or checks) every file named; exit status 1 if any failed, or with `--check` would
/// change.
pub(super) fn run(args: &FmtArgs) -> Result<ExitCode, CliError> {
    let mut out = io::stdout().lock();
    let mut failed = false;
    let mut files = Vec::new();
    for path in &args.paths {
        if path.is_dir() {
            let before = files.len();
            collect(path, &mut files);
            if files.len() == before {
                eprint_text(&format!("meeple: {}: no .rules files\n", path.display()));
            }
        } else {
            files.push(path.clone());
        }
    }
    for file in &files {
        let text = match crate::load::read_rules_file(file) {
            Ok(t) => t,
            Err(e) => {
                eprint_text(&format!("meeple: cannot read {}: {e}\n", file.display()));
                failed = true;
                continue;
            }
        };
        let mut sources = SourceMap::default();
        let id = sources.add(file.display().to_string(), text.as_str());
        let formatted = match format(id, &text) {
            Ok(f) => f,
            Err(FormatError::Syntax(diags)) => {
                eprint_text(&render_all(&Diagnostics(diags), &sources, stderr_style()));
                eprint_text(&format!("meeple: {}: not formatted\n", file.display()));
                failed = true;
                continue;
            }
            Err(FormatError::Changed) => {
                eprint_text(&format!(
                    "meeple: {}: not formatted: the layout would change its tokens (a bug in \
                     meeple fmt; please report it with the file)\n",
                    file.display()
                ));
                failed = true;
                continue;
            }
        };
        if formatted == text {
            continue;
        }
        if args.check {
            writeln!(out, "would reformat {}", file.display())?;
            write!(out, "{}", first_difference(&text, &formatted))?;
            failed = true;
        } else if let Err(e) = write_atomically(file, &formatted) {
            eprint_text(&format!("meeple: cannot write {}: {e}\n", file.display()));
            failed = true;
        } else {
            writeln!(out, "formatted {}", file.display())?;
        }
    }
    out.flush()?;
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Every `.rules` file under `dir`, recursively, in name order; hidden entries are skipped, and
/// links to folders are not followed (a link to a file is taken).
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<fs::DirEntry> = entries.flatten().collect();
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let p = entry.path();
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "rules") && p.is_file() {
            out.push(p);
        }
    }
}

/// The first lines where `old` and `new` differ, as `-`/`+` lines under a `@@ line N @@` header.
fn first_difference(old: &str, new: &str) -> String {
    let old: Vec<&str> = old.lines().collect();
    let new: Vec<&str> = new.lines().collect();
    let same = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    // The lines after the first difference up to where the two agree again, at most a few.
    let mut n = 1;
    while n < DIFF_LINES
        && old
            .get(same + n)
            .is_some_and(|l| Some(l) != new.get(same + n))
    {
        n += 1;
    }
    let mut out = format!("@@ line {} @@\n", same + 1);
    if old.len() == same && new.len() == same {
        out.push_str(" (only line endings differ, or the end of the file)\n");
        return out;
    }
    for line in old.iter().skip(same).take(n) {
        out.push_str(&format!("-{line}\n"));
    }
    for line in new.iter().skip(same).take(n) {
        out.push_str(&format!("+{line}\n"));
    }
    out
}

/// Replaces `path` with `text`: written to a temporary file in the same folder, which keeps the
/// original's permissions, then renamed over it, so the file is never half written. A
/// read-only file is refused.
fn write_atomically(path: &Path, text: &str) -> io::Result<()> {
    // Through a link, the file it points to is replaced, not the link.
    let real = fs::canonicalize(path);
    let path = real.as_deref().unwrap_or(path);
    crate::files::write_output(path, text, crate::files::Output::Rules, &[])
}
