//! Answers that change the text: formatting as `meeple fmt` lays a file out, and quick fixes
//! that apply a diagnostic's suggestion.

use super::analysis::{Document, OWN_FILE};
use crate::diag::Span;
use crate::syntax::format::{format, FormatError};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Range, TextEdit, Uri, WorkspaceEdit,
};
use std::collections::HashMap;

/// The edits that lay the document out as `meeple fmt` would: one that replaces the whole
/// text, or none when it is laid out already. A document that does not parse is not formatted
/// (its diagnostics say why): no edits. An error only if the formatter would change the
/// tokens, a bug to report.
pub fn formatting(doc: &Document) -> Result<Vec<TextEdit>, String> {
    if doc.text.len() as u64 > crate::load::MAX_RULES_FILE {
        return Ok(Vec::new());
    }
    let formatted = match format(OWN_FILE, &doc.text) {
        Ok(f) => f,
        Err(FormatError::Syntax(_)) => return Ok(Vec::new()),
        Err(FormatError::Changed) => {
            return Err(
                "not formatted: the layout would change the file's tokens (a bug in meeple \
                 fmt; please report it with the file)"
                    .into(),
            )
        }
    };
    if formatted == doc.text {
        return Ok(Vec::new());
    }
    let whole = doc.lines.range(&doc.text, 0, doc.text.len());
    Ok(vec![TextEdit::new(whole, formatted)])
}

/// A quick fix for each way to fix each diagnostic shown over `range`, with the diagnostic
/// attached; the only fix of a diagnostic is the preferred one.
// `WorkspaceEdit` keys its changes by `Uri`, which caches a field inside: never changed here.
#[allow(clippy::mutable_key_type)]
pub fn code_actions(doc: &Document, range: Range) -> Vec<CodeActionOrCommand> {
    let analysis = &doc.analysis;
    let shown = analysis.diagnostics(doc);
    let mut out = Vec::new();
    // `diagnostics` gives one protocol diagnostic for each of the checker's, in order.
    for (d, lsp) in analysis.loaded.diagnostics.0.iter().zip(shown) {
        if d.fixes.is_empty() || !overlaps(lsp.range, range) {
            continue;
        }
        for fix in &d.fixes {
            let text = analysis.file_text(fix.span.file, &doc.text);
            let Some((bytes, new_text)) = fix.edit(&text) else {
                continue;
            };
            let span = Span::new(fix.span.file, bytes.start, bytes.end);
            let Some(at) = analysis.location(&doc.uri, &doc.text, &doc.lines, span) else {
                continue;
            };
            let changes: HashMap<Uri, Vec<TextEdit>> =
                HashMap::from([(at.uri, vec![TextEdit::new(at.range, new_text)])]);
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: fix.title(&text),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![lsp.clone()]),
                edit: Some(WorkspaceEdit::new(changes)),
                is_preferred: Some(d.fixes.len() == 1),
                ..Default::default()
            }));
        }
    }
    out
}

/// True if two ranges share a position (touching counts: a cursor just after a name is on it).
fn overlaps(a: Range, b: Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::Position;

    #[test]
    fn ranges_that_touch_overlap() {
        let r = |a: u32, b: u32| Range::new(Position::new(0, a), Position::new(0, b));
        assert!(overlaps(r(2, 5), r(5, 5)));
        assert!(overlaps(r(2, 5), r(0, 9)));
        assert!(!overlaps(r(2, 5), r(6, 7)));
        assert!(!overlaps(
            r(2, 5),
            Range::new(Position::new(1, 0), Position::new(1, 3))
        ));
    }
}
