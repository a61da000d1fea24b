//! One open document checked as `meeple check` would: its own text from the editor, the files it
//! names (a variant's base) from other open documents or from disk, and what the checker found.

use super::text::{path_to_uri, Lines};
use crate::check::index::NameIndex;
use crate::diag::{self, FileId, Span};
use crate::load::same_file;
use crate::load::{self, Loaded};
use crate::syntax::{self, ast};
use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range, Uri,
};
use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// The document's own file in every analysis: it is the first file the loader reads.
pub const OWN_FILE: FileId = FileId(0);

/// What the checker made of one version of a document.
pub struct Analysis {
    /// Every file read, and every diagnostic.
    pub loaded: Loaded,
    /// Declared names and their uses, empty when a file did not parse.
    pub index: NameIndex,
    /// True if the document's own text parsed. Its syntax tree is not kept (it was most of
    /// what a document held): what is needed of it is kept below, and the outline parses the
    /// text again when asked.
    pub parses: bool,
    /// Where each declaration of the document starts, when it parsed: the scopes of completion.
    pub decl_starts: Vec<usize>,
    /// The `base "..."` of the document's variant header, if it has one.
    pub base: Option<Span>,
    /// Every other file the loader asked for (a variant's base), to re-check when one changes.
    pub reads: Vec<PathBuf>,
}

/// An open document.
pub struct Document {
    /// The editor's name for it.
    pub uri: Uri,
    /// Where it is on disk (or would be, for an unsaved buffer).
    pub path: PathBuf,
    /// The editor's text.
    pub text: String,
    /// The text's line starts.
    pub lines: Lines,
    /// The editor's version number.
    pub version: i32,
    /// The latest analysis of `text`.
    pub analysis: Analysis,
    /// The latest analysis of a version that parsed, for completion while a line is half typed.
    pub parsed: Option<Analysis>,
}

impl Document {
    /// The analysis with a syntax tree: the latest, or the last one that parsed.
    pub fn last_parsed(&self) -> &Analysis {
        match (self.analysis.parses, &self.parsed) {
            (false, Some(older)) => older,
            _ => &self.analysis,
        }
    }
}

/// Checks `text` as the file at `path`; other files come from `open` (path and text of other open
/// documents) or from disk.
pub fn analyse(path: &Path, text: &str, open: &[(PathBuf, String)]) -> Analysis {
    if text.len() as u64 > load::MAX_RULES_FILE {
        return too_large(path, text.len());
    }
    let reads = RefCell::new(Vec::new());
    let read = |p: &Path| -> std::io::Result<String> {
        if p == path {
            return Ok(text.to_string());
        }
        reads.borrow_mut().push(p.to_path_buf());
        match open.iter().find(|(q, _)| same_file(p, q)) {
            Some((_, t)) => Ok(t.clone()),
            None => load::read_rules_file(p),
        }
    };
    let (mut loaded, index) = load::load_indexed(path, &read);
    // The runnable program is not what an editor asks about: an open document keeps only what
    // its requests read.
    loaded.program = None;
    let ast = syntax::parse(OWN_FILE, text).ok();
    let base = ast
        .iter()
        .flat_map(|f| &f.items)
        .find_map(|item| match item {
            ast::Item::Decl {
                decl: ast::Decl::Variant(v),
                ..
            } => v.base.as_ref().map(|b| b.span),
            _ => None,
        });
    Analysis {
        loaded,
        index,
        parses: ast.is_some(),
        decl_starts: ast
            .as_ref()
            .map(|a| super::symbols::decl_starts(a, text))
            .unwrap_or_default(),
        base,
        reads: reads.into_inner(),
    }
}

/// The analysis of a document larger than a rules file may be: not checked, as `meeple check`
/// would not read it.
fn too_large(path: &Path, len: usize) -> Analysis {
    let mut sources = diag::SourceMap::default();
    let file = sources.add(path.display().to_string(), "");
    let d = diag::Diagnostic::error(
        "file-not-found",
        format!(
            "this file is {len} bytes, larger than a rules file may be ({}): it is not checked",
            crate::files::size(load::MAX_RULES_FILE)
        ),
        Span::new(file, 0, 0),
    )
    .with_help("split it, or keep generated data out of the rules");
    Analysis {
        loaded: Loaded {
            program: None,
            diagnostics: diag::Diagnostics(vec![d]),
            sources,
        },
        index: NameIndex::default(),
        parses: false,
        decl_starts: Vec::new(),
        base: None,
        reads: Vec::new(),
    }
}

impl Analysis {
    /// The text of a file the analysis read.
    pub fn file_text(&self, file: FileId, own: &str) -> String {
        if file == OWN_FILE {
            own.to_string()
        } else {
            self.loaded.sources.file(file).text.to_string()
        }
    }

    /// The location of a span: in the document itself, or in a file it named.
    pub fn location(
        &self,
        doc_uri: &Uri,
        doc_text: &str,
        lines: &Lines,
        span: Span,
    ) -> Option<Location> {
        if span.file == OWN_FILE {
            let range = lines.range(doc_text, span.start as usize, span.end as usize);
            return Some(Location::new(doc_uri.clone(), range));
        }
        let file = self.loaded.sources.file(span.file);
        let uri = path_to_uri(Path::new(&file.name))?;
        let range =
            Lines::new(&file.text).range(&file.text, span.start as usize, span.end as usize);
        Some(Location::new(uri, range))
    }

    /// The checker's diagnostics as the protocol has them. A problem in another file (a
    /// variant's base) is shown on the variant's `base "..."`, and points at its place.
    pub fn diagnostics(&self, doc: &Document) -> Vec<lsp_types::Diagnostic> {
        // Problems of the base are shown on the variant's `base "..."`, or at the start.
        let base = self.base.map_or(Range::default(), |s| {
            doc.lines.range(&doc.text, s.start as usize, s.end as usize)
        });
        let mut out = Vec::new();
        for d in &self.loaded.diagnostics.0 {
            let mut related = Vec::new();
            let mut message = d.message.clone();
            let range = if d.span.file == OWN_FILE {
                doc.lines
                    .range(&doc.text, d.span.start as usize, d.span.end as usize)
            } else {
                let file = self.loaded.sources.file(d.span.file);
                let (line, col) = self.loaded.sources.line_col(d.span);
                message = format!("in `{}` at {line}:{col}: {message}", file.name);
                if let Some(at) = self.location(&doc.uri, &doc.text, &doc.lines, d.span) {
                    related.push(DiagnosticRelatedInformation {
                        location: at,
                        message: if d.label.is_empty() {
                            d.message.clone()
                        } else {
                            d.label.clone()
                        },
                    });
                }
                base
            };
            for label in &d.labels {
                if let Some(at) = self.location(&doc.uri, &doc.text, &doc.lines, label.span) {
                    related.push(DiagnosticRelatedInformation {
                        location: at,
                        message: label.message.clone(),
                    });
                }
            }
            if let Some(help) = &d.help {
                message.push_str("\nhelp: ");
                message.push_str(help);
            }
            out.push(lsp_types::Diagnostic {
                range,
                severity: Some(match d.severity {
                    diag::Severity::Error => DiagnosticSeverity::ERROR,
                    diag::Severity::Warning => DiagnosticSeverity::WARNING,
                }),
                code: Some(NumberOrString::String(d.code.to_string())),
                source: Some("meeple".into()),
                message,
                related_information: (!related.is_empty()).then_some(related),
                ..Default::default()
            });
        }
        out
    }
}
