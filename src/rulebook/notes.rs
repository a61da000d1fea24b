//! The designer's comments as notes: the `#` lines just above a declaration, and a comment at
//! the end of its first line.
//!
//! The AST keeps no comments, so they are read from the source around the declaration's name.
//! A blank line ends a block of comments; ruler lines (`# ----- components`) are left out.

use crate::diag::{SourceMap, Span};

/// The comment lines written just above the line of `span`, in order, without their `#`.
pub fn above(sources: &SourceMap, span: Span) -> Vec<String> {
    let Some(text) = file_text(sources, span) else {
        return Vec::new();
    };
    let start = (span.start as usize).min(text.len());
    let Some(before) = text.get(..start) else {
        return Vec::new();
    };
    // The lines before the declaration's own line, nearest first.
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let Some(earlier) = text.get(..line_start) else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    for line in earlier.lines().rev() {
        let t = line.trim();
        let Some(comment) = t.strip_prefix('#') else {
            break;
        };
        lines.push(comment.trim().to_string());
    }
    lines.reverse();
    lines.retain(|l| !is_ruler(l));
    // An empty comment line inside the block (a paragraph break) is kept only between lines.
    while lines.first().is_some_and(String::is_empty) {
        lines.remove(0);
    }
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    lines
}

/// The comment at the end of the line where `span` starts, if any (`# the honest score`).
pub fn trailing(sources: &SourceMap, span: Span) -> Option<String> {
    let text = file_text(sources, span)?;
    let start = (span.start as usize).min(text.len());
    let rest = text.get(start..)?;
    let line = rest.lines().next().unwrap_or("");
    let at = comment_start(line)?;
    let comment = line.get(at + 1..)?.trim();
    (!comment.is_empty()).then(|| comment.to_string())
}

/// The text of the file a span points into, if it is known.
fn file_text(sources: &SourceMap, span: Span) -> Option<&str> {
    if span.start == 0 && span.end == 0 {
        return None; // a default span points nowhere
    }
    // `SourceMap::file` indexes; a span from this program's own files is always in range.
    Some(&sources.file(span.file).text)
}

/// Where a `#` outside quotes starts a comment on a line.
fn comment_start(line: &str) -> Option<usize> {
    let mut in_text = false;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_text => escaped = true,
            '"' => in_text = !in_text,
            '#' if !in_text => return Some(i),
            _ => {}
        }
    }
    None
}

/// A line of dashes or equals signs, possibly with a heading after them.
fn is_ruler(line: &str) -> bool {
    line.starts_with("---") || line.starts_with("===")
}

/// Joins comment lines into paragraphs: lines run together, an empty line starts a new one.
pub fn paragraphs(lines: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for l in lines {
        if l.is_empty() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            continue;
        }
        // A line laid out in columns (a table of commands, say) stays a line of its own.
        if is_columns(l) {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            out.push(l.clone());
            continue;
        }
        // A line that opens a list (`1 Market crash: ...`) or is indented starts afresh.
        let starts_item = is_item(l);
        if !current.is_empty() && starts_item {
            out.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(l);
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// A line aligned in columns: a run of three spaces inside it.
fn is_columns(line: &str) -> bool {
    line.trim().contains("   ")
}

/// A line that opens an item of a list: `- ...`, or a number and a capitalised word
/// (`1 Market crash: ...`), not a sentence going on (`1 to 4 members`).
fn is_item(line: &str) -> bool {
    if line.starts_with("- ") {
        return true;
    }
    let rest = line.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.len() < line.len()
        && rest
            .strip_prefix(' ')
            .and_then(|r| r.chars().next())
            .is_some_and(char::is_uppercase)
}

/// The comments that introduce a file's header (`game` or `variant`): those just above it, or
/// else the file's opening block of comments when a blank line sets it apart from what follows.
pub fn header(sources: &SourceMap, span: Span) -> Vec<String> {
    let above = above(sources, span);
    if !above.is_empty() {
        return above;
    }
    let Some(text) = file_text(sources, span) else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    let mut rest = text.lines();
    for line in rest.by_ref() {
        match line.trim().strip_prefix('#') {
            Some(c) => lines.push(c.trim().to_string()),
            None if line.trim().is_empty() => break,
            None => return Vec::new(), // the block runs into a declaration: its own notes
        }
    }
    lines.retain(|l| !is_ruler(l));
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    lines
}
