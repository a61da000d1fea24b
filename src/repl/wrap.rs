//! Lines that fit the terminal: everything the REPL prints is broken at word boundaries (and
//! between the `·`-separated fields of a view) so that no word is cut across rows.

use std::io::{self, Write};
use unicode_width::UnicodeWidthChar;

/// How wide the REPL's lines may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    /// As they come: output read by a program (a pipe, a file).
    Unbounded,
    /// A fixed number of columns (`COLUMNS`, or a test).
    Columns(usize),
    /// The terminal's width, read again at each line (a window can be resized); 80 when it
    /// cannot be read.
    Terminal,
}

/// The narrowest width wrapped to: below it, lines are left as they are.
const NARROWEST: usize = 20;

impl Width {
    fn columns(self) -> Option<usize> {
        let n = match self {
            Width::Unbounded => return None,
            Width::Columns(n) => n,
            Width::Terminal => {
                terminal_size::terminal_size_of(io::stdout()).map_or(80, |(w, _)| w.0 as usize)
            }
        };
        (n >= NARROWEST).then_some(n)
    }
}

/// `text` with each of its lines wrapped at `width` ([`wrap_line`]): for a report printed to
/// a terminal.
pub fn fit(text: &str, width: Width) -> String {
    let Some(columns) = width.columns() else {
        return text.to_string();
    };
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        out.push_str(&wrap_line(body, columns));
        out.push_str(end);
    }
    out
}

/// A writer that wraps each line it is given at the width.
pub struct Wrap<'w> {
    inner: &'w mut dyn Write,
    width: Width,
    /// The line written so far (up to its end).
    line: String,
}

impl<'w> Wrap<'w> {
    /// Wraps what is written to `inner` at `width`.
    pub fn new(inner: &'w mut dyn Write, width: Width) -> Wrap<'w> {
        Wrap {
            inner,
            width,
            line: String::new(),
        }
    }
}

impl Write for Wrap<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.width == Width::Unbounded {
            return self.inner.write(buf);
        }
        // The REPL writes whole characters (it writes `str`s).
        self.line.push_str(&String::from_utf8_lossy(buf));
        while let Some(end) = self.line.find('\n') {
            let rest = self.line.split_off(end + 1);
            let line = std::mem::replace(&mut self.line, rest);
            let wrapped = match self.width.columns() {
                Some(width) => wrap_line(&line[..end], width),
                None => line[..end].to_string(),
            };
            self.inner.write_all(wrapped.as_bytes())?;
            self.inner.write_all(b"\n")?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        // A line without its end yet (a question before the answer) goes out as it is.
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.inner.write_all(line.as_bytes())?;
        }
        self.inner.flush()
    }
}

/// Columns a text takes: terminal escape sequences take none.
fn columns(text: &str) -> usize {
    let mut n = 0;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: ESC [ parameters, then a letter.
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
            continue;
        }
        n += c.width().unwrap_or(0);
    }
    n
}

/// One line, as rows of at most `width` columns. A line of `·`-separated fields that does not
/// fit is laid out one field a row; a field or sentence that does not fit is broken between
/// words (after commas when it is a list), continued under its start. A single word wider
/// than a row is left whole.
pub fn wrap_line(line: &str, width: usize) -> String {
    if columns(line) <= width {
        return line.to_string();
    }
    let indent = line.len() - line.trim_start_matches(' ').len();
    let body = &line[indent..];
    let hanging = indent + hanging_indent(body);
    let fields: Vec<&str> = body.split(" · ").collect();
    if fields.len() > 1 {
        // The first field stays on the line's own row; each other field gets a row of its own.
        let mut rows = Vec::new();
        let mut prefix = " ".repeat(indent);
        let field_indent = (indent + 4).min(width / 2);
        for (i, field) in fields.iter().enumerate() {
            let text = format!("{prefix}{field}");
            rows.push(words(
                &text,
                width,
                (if i == 0 { hanging } else { field_indent + 2 }).min(width / 2),
            ));
            prefix = " ".repeat(field_indent);
        }
        return rows.join("\n");
    }
    words(line, width, hanging.min(width / 2))
}

/// How far past the indentation a continued row starts: under the text after a list's number
/// (`12. `), else two columns in (under the text after a bullet `- `, too).
fn hanging_indent(body: &str) -> usize {
    let digits = body.len() - body.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && body[digits..].starts_with(". ") {
        digits + 2
    } else {
        2
    }
}

/// `text` broken between words into rows of at most `width` columns, rows after the first
/// indented by `hang`.
fn words(text: &str, width: usize, hang: usize) -> String {
    let indent = text.len() - text.trim_start_matches(' ').len();
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str(&text[..indent]);
    let mut at = indent;
    let mut first_on_row = true;
    for word in text[indent..].split(' ') {
        let w = columns(word);
        if !first_on_row && at + 1 + w > width {
            out.push('\n');
            out.push_str(&" ".repeat(hang));
            at = hang;
            first_on_row = true;
        }
        if !first_on_row {
            out.push(' ');
            at += 1;
        }
        out.push_str(word);
        at += w;
        first_on_row = false;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row at most `width` columns, unless it is one word.
    fn fits(text: &str, width: usize) {
        for row in text.lines() {
            assert!(
                columns(row) <= width || !row.trim().contains(' '),
                "row of {} columns: {row:?}",
                columns(row)
            );
        }
    }

    /// The words of a text, in order, whatever the rows.
    fn words_of(text: &str) -> Vec<&str> {
        text.split_whitespace().filter(|w| *w != "·").collect()
    }

    #[test]
    fn a_long_move_is_broken_between_words_under_its_text() {
        let line = "  2. trade — Give a card of your hand to another player, then draw two from the deck if you can";
        let out = wrap_line(line, 40);
        fits(&out, 40);
        assert_eq!(words_of(&out), words_of(line), "no word lost or cut");
        let rows: Vec<&str> = out.lines().collect();
        assert!(rows.len() > 2);
        assert!(
            rows[1].starts_with("     ") && !rows[1].starts_with("      "),
            "{out}"
        );
    }

    #[test]
    fn fields_that_do_not_fit_take_a_row_each_and_a_short_line_is_untouched() {
        let line = "  P1 (you): hand [red 1, blue 3, green 2, white 5, yellow 4] · clues [red, 3, not blue, not 4] · fuses 3";
        let out = wrap_line(line, 50);
        fits(&out, 50);
        assert_eq!(words_of(&out), words_of(line));
        assert!(
            out.lines().any(|r| r.trim_start().starts_with("clues")),
            "{out}"
        );
        assert!(out.lines().any(|r| r.trim_start() == "fuses 3"), "{out}");
        assert_eq!(
            wrap_line("  round 4 · start_player P1", 80),
            "  round 4 · start_player P1"
        );
    }

    #[test]
    fn escapes_and_wide_characters_are_measured_as_the_terminal_shows_them() {
        assert_eq!(columns("\u{1b}[1mbold\u{1b}[0m"), 4);
        assert_eq!(columns("王様"), 4);
        let one_long_word = "x".repeat(100);
        assert_eq!(wrap_line(&one_long_word, 40), one_long_word);
    }

    #[test]
    fn a_report_is_fitted_line_by_line_and_left_whole_for_a_pipe() {
        let report = "Length in decisions: mean 60.8, median 60.5, 5th percentile 50, 95th percentile 73\nshort\n";
        let fitted = fit(report, Width::Columns(40));
        fits(&fitted, 40);
        assert_eq!(words_of(&fitted), words_of(report));
        assert!(fitted.ends_with("\nshort\n"));
        assert_eq!(fit(report, Width::Unbounded), report);
    }

    #[test]
    fn the_writer_wraps_whole_lines_and_lets_a_question_through_at_once() {
        let mut sink = Vec::new();
        {
            let mut w = Wrap::new(&mut sink, Width::Columns(20));
            write!(w, "one two three four five six seven\nQuit? ").unwrap();
            w.flush().unwrap();
        }
        let text = String::from_utf8(sink).unwrap();
        assert_eq!(text, "one two three four\n  five six seven\nQuit? ");
        let mut sink = Vec::new();
        let long = "a b c d e f g h i j k l m n o p q r s t u v w x y z a b c\n";
        write!(Wrap::new(&mut sink, Width::Unbounded), "{long}").unwrap();
        assert_eq!(
            String::from_utf8(sink).unwrap(),
            long,
            "a pipe gets lines whole"
        );
    }
}
