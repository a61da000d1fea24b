//! One diagnostic type for every stage (code, message, span, labels, help) and its rendering
//! through `miette` at the edge.
//!
//! Invariant: spans are byte offsets into a file of the [`SourceMap`]; line and column are
//! computed only when rendering.

mod fix;
mod shown;
mod suggest;
mod window;

pub use fix::Fix;
pub use suggest::suggest_name;

use crate::printable::escape;
use std::fmt;
use std::sync::Arc;

/// Index of a file in a [`SourceMap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FileId(pub u32);

/// A byte range in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    /// The file the range lies in.
    pub file: FileId,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from byte offsets.
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both (same file assumed).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// One loaded source file.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path as the user gave it (or as resolved from a variant's `base`).
    pub name: String,
    /// The whole text.
    pub text: Arc<str>,
    /// Where each line starts, found the first time a diagnostic is drawn.
    line_starts: std::sync::OnceLock<Arc<Vec<usize>>>,
    /// The text as drawn when it holds control characters, found the first time too.
    shown: std::sync::OnceLock<Option<Arc<shown::Shown>>>,
}

/// Every file loaded for one program: a base game and its variants.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> FileId {
        self.files.push(SourceFile {
            name: name.into(),
            text: text.into(),
            line_starts: std::sync::OnceLock::new(),
            shown: std::sync::OnceLock::new(),
        });
        FileId(self.files.len() as u32 - 1)
    }

    /// How many files it holds.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True if it holds no file.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Every file's name, as it was opened, in order.
    pub fn paths(&self) -> Vec<std::path::PathBuf> {
        self.files.iter().map(|f| f.name.clone().into()).collect()
    }

    /// The file with this id.
    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// The source text a span covers.
    pub fn snippet(&self, span: Span) -> &str {
        let text = &self.file(span.file).text;
        text.get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    /// [`SourceMap::line_col`] of each of `spans`, which must be sorted: lines are counted in
    /// one pass over each file, not from its start for every span.
    pub fn line_cols(&self, spans: &[Span]) -> Vec<(usize, usize)> {
        let mut out = Vec::with_capacity(spans.len());
        // (file, byte reached, its line, where that line starts)
        let mut at: Option<(FileId, usize, usize, usize)> = None;
        for &span in spans {
            let text = &self.file(span.file).text;
            let start = (span.start as usize).min(text.len());
            let (pos, mut line, mut line_start) = match at {
                Some((f, pos, line, line_start)) if f == span.file && pos <= start => {
                    (pos, line, line_start)
                }
                _ => (0, 1, 0),
            };
            for (i, b) in text.as_bytes()[pos..start].iter().enumerate() {
                if *b == b'\n' {
                    line += 1;
                    line_start = pos + i + 1;
                }
            }
            at = Some((span.file, start, line, line_start));
            let column = text.get(line_start..start).map_or(0, |l| l.chars().count()) + 1;
            out.push((line, column));
        }
        out
    }

    /// 1-based line and column of a span's start.
    pub fn line_col(&self, span: Span) -> (usize, usize) {
        let text = &self.file(span.file).text;
        let upto = text.get(..span.start as usize).unwrap_or(text);
        let line = upto.matches('\n').count() + 1;
        let col = upto.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }
}

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Worth a look; the file still runs.
    Warning,
    /// The file cannot run.
    Error,
}

/// A secondary label pointing at related source.
#[derive(Debug, Clone)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What it says there.
    pub message: String,
}

/// A problem found in a rules file or while running one.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// A stable kebab-case code, such as `unknown-name`.
    pub code: &'static str,
    /// One line saying what is wrong.
    pub message: String,
    /// The source the problem is about.
    pub span: Span,
    /// What the label under the primary span says.
    pub label: String,
    /// Further places, in the same file.
    pub labels: Vec<Label>,
    /// A line on how to fix it.
    pub help: Option<String>,
    /// The help as changes to the source, when it names one: each is one way to fix it.
    pub fixes: Vec<Fix>,
}

impl Diagnostic {
    /// An error with a code, a message and a primary span.
    pub fn error(code: &'static str, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            span,
            label: String::new(),
            labels: Vec::new(),
            help: None,
            fixes: Vec::new(),
        }
    }

    /// A warning with a code, a message and a primary span.
    pub fn warning(code: &'static str, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message, span)
        }
    }

    /// Sets the label under the primary span.
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    /// Adds a secondary label (ignored when rendering if in another file).
    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Sets the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Adds a way to fix it: the text of `span` becomes `replacement`.
    pub fn with_fix(mut self, span: Span, replacement: impl Into<String>) -> Diagnostic {
        self.fixes.push(Fix {
            span,
            replacement: replacement.into(),
        });
        self
    }

    /// Sets the help line to `did you mean `{meant}`?`, and the fix that writes `meant` over
    /// the span.
    pub fn with_suggestion(self, meant: &str) -> Diagnostic {
        let span = self.span;
        self.with_help(format!("did you mean `{meant}`?"))
            .with_fix(span, meant)
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Several diagnostics, as returned by a stage that collects every problem.
#[derive(Debug, Clone, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// True if any is an error.
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }

    /// Number of errors.
    pub fn error_count(&self) -> usize {
        self.0.iter().filter(|d| d.is_error()).count()
    }

    /// Number of warnings.
    pub fn warning_count(&self) -> usize {
        self.0.len() - self.error_count()
    }
}

/// How to render diagnostics.
#[derive(Debug, Clone, Copy)]
pub struct RenderStyle {
    /// ANSI colours and unicode art.
    pub color: bool,
    /// Wrap width in columns.
    pub width: usize,
}

impl RenderStyle {
    /// No colour, fixed width: for snapshots and pipes.
    pub fn plain() -> RenderStyle {
        RenderStyle {
            color: false,
            width: 100,
        }
    }
}

/// Lines longer than this (in bytes) are not drawn with the source.
const MAX_DRAWN_LINE: usize = 10_000;

/// Renders one diagnostic through miette (as plain lines if its file is not in `sources`).
pub fn render(diag: &Diagnostic, sources: &SourceMap, style: RenderStyle) -> String {
    let Some(file) = sources.files.get(diag.span.file.0 as usize) else {
        let help = diag
            .help
            .as_deref()
            .map(|h| format!("\n  help: {h}"))
            .unwrap_or_default();
        return escape(&format!("{}: {}{help}\n", diag.code, diag.message)).into_owned();
    };
    // The graphical renderer cannot draw a label far out on a long line: such a diagnostic
    // is written plainly, with its line and column.
    let line_len = |at: u32| {
        let text: &str = &file.text;
        let at = (at as usize).min(text.len());
        let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        end - start
    };
    let too_wide = std::iter::once(diag.span)
        .chain(diag.labels.iter().map(|l| l.span))
        .any(|s| line_len(s.start) > MAX_DRAWN_LINE || line_len(s.end) > MAX_DRAWN_LINE);
    if too_wide {
        let (line, col) = sources.line_col(diag.span);
        let help = diag
            .help
            .as_deref()
            .map(|h| format!("\n  help: {h}"))
            .unwrap_or_default();
        return escape(&format!(
            "{}: {}\n  --> {}:{line}:{col} (the line is too long to draw){help}\n",
            diag.code, diag.message, file.name
        ))
        .into_owned();
    }
    // A file with no text (one that could not be read) has nothing to draw: no empty window,
    // so no labels either.
    let drawn = !file.text.is_empty();
    // Drawn with its control characters escaped, and the labels moved to match.
    let shown = file
        .shown
        .get_or_init(|| shown::Shown::of(&file.text).map(Arc::new));
    let at = |offset: u32| {
        shown
            .as_ref()
            .map_or(offset as usize, |s| s.offset(offset as usize))
    };
    let labeled = |label: Option<String>, span: Span| {
        let start = at(span.start);
        miette::LabeledSpan::new(label, start, at(span.end).saturating_sub(start))
    };
    let mut labels = Vec::new();
    if drawn {
        let label = Some(escape(&diag.label).into_owned()).filter(|l| !l.is_empty());
        labels.push(labeled(label, diag.span));
        for l in diag.labels.iter().filter(|l| l.span.file == diag.span.file) {
            labels.push(labeled(Some(escape(&l.message).into_owned()), l.span));
        }
    }
    let (text, line_starts) = match shown {
        Some(s) => (s.text.clone(), s.line_starts.clone()),
        None => (
            file.text.clone(),
            file.line_starts
                .get_or_init(|| Arc::new(window::line_starts(&file.text)))
                .clone(),
        ),
    };
    let report = Rendered {
        message: escape(&diag.message).into_owned(),
        code: diag.code,
        severity: match diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        },
        help: diag.help.as_deref().map(|h| escape(h).into_owned()),
        labels,
        source: drawn
            .then(|| window::Windowed::new(escape(&file.name).into_owned(), text, line_starts)),
    };
    let theme = if style.color {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    let handler = miette::GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false);
    let mut out = String::new();
    if handler.render_report(&mut out, &report).is_err() {
        out = escape(&format!("{}: {}\n", diag.code, diag.message)).into_owned();
    }
    out
}

/// Renders every diagnostic, one after another.
pub fn render_all(diags: &Diagnostics, sources: &SourceMap, style: RenderStyle) -> String {
    let mut out = String::new();
    for d in &diags.0 {
        out.push_str(&render(d, sources, style));
        out.push('\n');
    }
    out
}

#[derive(Debug)]
struct Rendered {
    message: String,
    code: &'static str,
    severity: miette::Severity,
    help: Option<String>,
    labels: Vec<miette::LabeledSpan>,
    /// The file drawn under the message; `None` for one with no text.
    source: Option<window::Windowed>,
}

impl fmt::Display for Rendered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Rendered {}

impl miette::Diagnostic for Rendered {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h.as_str()) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_placed_together_are_placed_as_one_at_a_time() {
        let mut sources = SourceMap::default();
        let a = sources.add("a.rules", "one\ntwo é\r\n  three\n\nfive");
        let b = sources.add("b.rules", "x\ny");
        let mut spans: Vec<Span> = [0, 4, 8, 14, 20, 22]
            .iter()
            .map(|&i| Span::new(a, i, i))
            .chain([Span::new(b, 0, 0), Span::new(b, 2, 3)])
            .collect();
        spans.sort();
        let one_by_one: Vec<(usize, usize)> = spans.iter().map(|s| sources.line_col(*s)).collect();
        assert_eq!(sources.line_cols(&spans), one_by_one);
        assert_eq!(one_by_one[3], (3, 3), "`three`, after two spaces");
    }
}
