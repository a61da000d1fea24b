//! Reading a diagnostic's lines without reading the file from its start.
//!
//! miette reads the lines around a label by scanning its source from the first byte, so a file
//! with many diagnostics rendered one after another costs the file's length for each. Here the
//! scan starts a few lines before the label, found by a binary search over the file's line
//! starts, and the result is shifted back to the file's own offsets and line numbers: what is
//! drawn is exactly what a scan from the start would draw.

use miette::{MietteError, SourceCode, SourceSpan, SpanContents};
use std::sync::Arc;

/// A named source whose line starts are known.
#[derive(Debug)]
pub(super) struct Windowed {
    name: String,
    text: Arc<str>,
    line_starts: Arc<Vec<usize>>,
}

impl Windowed {
    pub(super) fn new(name: String, text: Arc<str>, line_starts: Arc<Vec<usize>>) -> Windowed {
        Windowed {
            name,
            text,
            line_starts,
        }
    }
}

/// Where each line starts, counting line breaks as miette does: `\n`, `\r\n` or a lone `\r`.
pub(super) fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    for (i, b) in bytes.iter().enumerate() {
        let ends_line = match b {
            b'\n' => true,
            b'\r' => bytes.get(i + 1) != Some(&b'\n'),
            _ => false,
        };
        if ends_line {
            starts.push(i + 1);
        }
    }
    starts
}

impl SourceCode for Windowed {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let line = self
            .line_starts
            .partition_point(|s| *s <= span.offset())
            .saturating_sub(1);
        // One line more than the context, so that the scan sees as many line breaks before
        // the label as it would from the start of the file.
        let first = line.saturating_sub(context_lines_before + 1);
        let start = self.line_starts.get(first).copied().unwrap_or(0);
        let window = self.text.as_bytes().get(start..).unwrap_or_default();
        let offset = span
            .offset()
            .checked_sub(start)
            .ok_or(MietteError::OutOfBounds)?;
        let inner = window.read_span(
            &SourceSpan::new(offset.into(), span.len()),
            context_lines_before,
            context_lines_after,
        )?;
        let inner_span = inner.span();
        Ok(Box::new(Shifted {
            span: SourceSpan::new((inner_span.offset() + start).into(), inner_span.len()),
            lines: first,
            name: &self.name,
            inner,
        }))
    }
}

/// A window's contents, in the whole file's offsets and line numbers.
struct Shifted<'a> {
    inner: Box<dyn SpanContents<'a> + 'a>,
    span: SourceSpan,
    lines: usize,
    name: &'a str,
}

impl<'a> SpanContents<'a> for Shifted<'a> {
    fn data(&self) -> &'a [u8] {
        self.inner.data()
    }
    fn span(&self) -> &SourceSpan {
        &self.span
    }
    fn line(&self) -> usize {
        self.inner.line() + self.lines
    }
    fn column(&self) -> usize {
        self.inner.column()
    }
    fn line_count(&self) -> usize {
        self.inner.line_count() + self.lines
    }
    fn name(&self) -> Option<&str> {
        Some(self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_reads_what_the_whole_file_reads() {
        let text = "one\ntwo\r\nthree\rfour\nfive\nsix\n\nseven eight\nnine";
        let starts = Arc::new(line_starts(text));
        let windowed = Windowed::new("f".into(), text.into(), starts);
        let named = miette::NamedSource::new("f", text.to_string());
        for offset in 0..text.len() {
            for len in [0, 1, 3] {
                for (before, after) in [(0, 0), (1, 1), (2, 3)] {
                    let span = SourceSpan::new(offset.into(), len);
                    let a = windowed.read_span(&span, before, after);
                    let b = named.read_span(&span, before, after);
                    match (a, b) {
                        (Ok(a), Ok(b)) => {
                            let at = format!("offset {offset}, len {len}, {before}/{after}");
                            assert_eq!(a.data(), b.data(), "{at}");
                            assert_eq!(a.span(), b.span(), "{at}");
                            assert_eq!(a.line(), b.line(), "{at}");
                            assert_eq!(a.column(), b.column(), "{at}");
                            assert_eq!(a.line_count(), b.line_count(), "{at}");
                        }
                        (Err(_), Err(_)) => {}
                        (a, b) => panic!("offset {offset}: {} vs {}", a.is_ok(), b.is_ok()),
                    }
                }
            }
        }
    }
}
