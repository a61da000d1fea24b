//! Text from rules files shown as text only.
//!
//! A rules file's strings, comments and names reach terminals: log lines, descriptions, views,
//! diagnostics quoting a line of source, rulebooks, reports. A control character among them
//! would be obeyed by the terminal: `ESC [2J` clears the screen (a fake "pass the device"),
//! `ESC ]0;` sets the title, `ESC ]52;` writes the clipboard. Every output escapes them as
//! `\u{1b}`; only line breaks and tabs stay as they are.

use std::borrow::Cow;
use std::io::{self, Write};

/// True for a character a terminal may obey rather than show: the C0 controls but tab and line
/// feed, DEL, and the C1 controls (U+0080 to U+009F; `U+009B` is a CSI in some terminals).
pub fn is_control(c: char) -> bool {
    // `char::is_control` is the Cc category: exactly C0, DEL and C1.
    c.is_control() && c != '\n' && c != '\t'
}

/// `text` with every control character ([`is_control`]) written as `\u{..}`.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_but(text, |_| false)
}

/// Like [`escape`], keeping carriage returns too: for source text, whose line breaks may be
/// `\r\n`.
pub fn escape_source(text: &str) -> Cow<'_, str> {
    escape_but(text, |c| c == '\r')
}

fn escape_but(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(|c| is_control(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_control(c) && !keep(c) {
            out.push_str(&escaped(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// How one control character is shown: `\u{1b}`.
pub fn escaped(c: char) -> String {
    format!("\\u{{{:x}}}", c as u32)
}

/// JSON text (from serde_json, which escapes the C0 controls) with DEL and the C1 controls
/// escaped as well, as `\u007f`: still the same JSON, and nothing a terminal obeys.
pub fn escape_json(json: &str) -> Cow<'_, str> {
    if !json.chars().any(is_control) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if is_control(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A writer that escapes every control character written through it ([`escape`]), for
/// outputs made of rules text; [`Printable::raw`] writes the program's own terminal codes.
pub struct Printable<'w> {
    inner: &'w mut dyn Write,
    /// The first byte of a character split between two writes.
    pending: Vec<u8>,
}

impl<'w> Printable<'w> {
    /// Escapes what is written to `inner`.
    pub fn new(inner: &'w mut dyn Write) -> Printable<'w> {
        Printable {
            inner,
            pending: Vec::new(),
        }
    }

    /// Writes `text` as it is: the program's own codes (clearing the screen, colours of a
    /// diagnostic already escaped when rendered).
    pub fn raw(&mut self, text: &str) -> io::Result<()> {
        self.inner.write_all(text.as_bytes())
    }
}

impl Write for Printable<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut bytes = std::mem::take(&mut self.pending);
        bytes.extend_from_slice(buf);
        // A character cut at the end is kept for the next write.
        let cut = match std::str::from_utf8(&bytes) {
            Ok(_) => bytes.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => bytes.len(),
        };
        self.pending = bytes.split_off(cut);
        let text = String::from_utf8_lossy(&bytes);
        self.inner.write_all(escape(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            let rest = std::mem::take(&mut self.pending);
            self.inner
                .write_all(String::from_utf8_lossy(&rest).as_bytes())?;
        }
        self.inner.flush()
    }
}

/// `s` for HTML, its control characters written out too: the one HTML escaping of meeple
/// (`sim --html` pages, rulebooks; the web table writes through maud, then [`escape`]).
pub fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Shown as text, as everywhere else: a page may be read in a terminal too.
            c if is_control(c) => out.push_str(&escaped(c)),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_text_is_kept() {
        assert_eq!(escape("plain\ttext\n"), "plain\ttext\n");
        assert_eq!(escape("\x1b[2Jgone"), "\\u{1b}[2Jgone");
        assert_eq!(
            escape("a\rb\x07\u{9b}c\x7f"),
            "a\\u{d}b\\u{7}\\u{9b}c\\u{7f}"
        );
        assert_eq!(escape_source("a\r\nb\x1b"), "a\r\nb\\u{1b}");
        assert_eq!(escape("é ✓"), "é ✓");
    }

    #[test]
    fn json_keeps_its_meaning() {
        let json = serde_json::to_string("a\x1b\u{7f}\u{9b}").unwrap();
        let shown = escape_json(&json);
        assert!(!shown.chars().any(is_control), "{shown}");
        let back: String = serde_json::from_str(&shown).unwrap();
        assert_eq!(back, "a\x1b\u{7f}\u{9b}");
    }

    #[test]
    fn a_writer_escapes_even_a_character_split_between_writes() {
        let mut out = Vec::new();
        {
            let mut p = Printable::new(&mut out);
            p.write_all(b"x\xc2").unwrap();
            p.write_all(b"\x9by\x1b").unwrap();
            p.raw("\x1b[H").unwrap();
            p.flush().unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), "x\\u{9b}y\\u{1b}\x1b[H");
    }
}
