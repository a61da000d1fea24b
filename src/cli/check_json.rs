//! `meeple check --json`: every diagnostic as data, for CI steps and editors that do not speak
//! LSP (schema `meeple-check/1`, docs/json.md).

use crate::diag::{Diagnostic, Severity, SourceMap};
use crate::load::Loaded;
use serde::Serialize;
use std::path::Path;

/// The version of the document's shape: a field removed, renamed or changed in meaning gets a
/// new number; fields may be added within a version.
pub(super) const SCHEMA: &str = "meeple-check/1";

/// The whole document: one entry a file checked, in the order given.
#[derive(Serialize)]
pub(super) struct Report {
    schema: &'static str,
    ok: bool,
    files: Vec<FileReport>,
}

/// One file checked: its outcome and every diagnostic of it and of the files it read.
#[derive(Serialize)]
struct FileReport {
    file: String,
    ok: bool,
    errors: usize,
    warnings: usize,
    diagnostics: Vec<Entry>,
}

/// One diagnostic, placed by 1-based line and column (columns count characters).
#[derive(Serialize)]
struct Entry {
    file: String,
    severity: &'static str,
    code: &'static str,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<String>,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    #[serde(skip_serializing_if = "String::is_empty")]
    label: String,
    /// Machine-applicable fixes (the LSP's quick fixes), each one way to fix it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fixes: Vec<FixEntry>,
}

/// One fix: replace the text from (line, column) to (end_line, end_column) by `replacement`.
#[derive(Serialize)]
struct FixEntry {
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    replacement: String,
}

impl Report {
    /// An empty report.
    pub(super) fn new() -> Report {
        Report {
            schema: SCHEMA,
            ok: true,
            files: Vec::new(),
        }
    }

    /// Adds the outcome of checking `file`.
    pub(super) fn add(&mut self, file: &Path, loaded: &Loaded, ok: bool) {
        self.ok &= ok;
        self.files.push(FileReport {
            file: file.display().to_string(),
            ok,
            errors: loaded.diagnostics.error_count(),
            warnings: loaded.diagnostics.warning_count(),
            diagnostics: loaded
                .diagnostics
                .0
                .iter()
                .map(|d| entry(d, &loaded.sources, file))
                .collect(),
        });
    }

    /// The document as one line of JSON, with nothing in it a terminal would obey.
    pub(super) fn to_json(&self) -> String {
        let json = serde_json::to_string(self).expect("a check report is plain data");
        crate::printable::escape_json(&json).into_owned()
    }
}

fn entry(d: &Diagnostic, sources: &SourceMap, checked: &Path) -> Entry {
    // A diagnostic about a file that could not be read has no place in any file's text.
    let known = (d.span.file.0 as usize) < sources.len();
    let (file, (line, column), (end_line, end_column)) = if known {
        let (start, end) = place(sources, d.span);
        (sources.file(d.span.file).name.clone(), start, end)
    } else {
        (checked.display().to_string(), (1, 1), (1, 1))
    };
    Entry {
        file,
        severity: match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        code: d.code,
        message: d.message.clone(),
        help: d.help.clone(),
        line,
        column,
        end_line,
        end_column,
        label: d.label.clone(),
        fixes: if known {
            d.fixes
                .iter()
                .filter(|f| f.span.file == d.span.file)
                .map(|f| {
                    let ((line, column), (end_line, end_column)) = place(sources, f.span);
                    FixEntry {
                        line,
                        column,
                        end_line,
                        end_column,
                        replacement: f.replacement.clone(),
                    }
                })
                .collect()
        } else {
            Vec::new()
        },
    }
}

/// Where a span starts and ends, as 1-based lines and columns.
fn place(sources: &SourceMap, span: crate::diag::Span) -> ((usize, usize), (usize, usize)) {
    let end = crate::diag::Span {
        start: span.end,
        ..span
    };
    (sources.line_col(span), sources.line_col(end))
}
