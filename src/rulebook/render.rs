//! A book as Markdown-like plain text, or as one self-contained HTML page (inline style, no
//! scripts, no external assets; every text escaped).

use super::{Block, Book, Line};

/// The book as plain text in the style of Markdown: `#` headings, `-` items, nested steps,
/// `>` notes and `|` tables.
pub fn text(book: &Book) -> String {
    let mut out = String::new();
    for s in &book.sections {
        if !out.is_empty() {
            out.push('\n');
        }
        let level = usize::from(s.level.clamp(1, 6));
        out.push_str(&format!("{} {}\n", "#".repeat(level), s.heading));
        for b in &s.blocks {
            out.push('\n');
            match b {
                Block::Para(p) => {
                    out.push_str(p);
                    out.push('\n');
                }
                Block::Items(items) => {
                    for i in items {
                        out.push_str(&format!("- {i}\n"));
                    }
                }
                Block::Steps(lines) | Block::Tree(lines) => {
                    for l in lines {
                        out.push_str(&format!("{}- {}\n", "  ".repeat(l.depth), l.text));
                    }
                }
                Block::Note(paras) => {
                    for (i, p) in paras.iter().enumerate() {
                        if i > 0 {
                            out.push_str(">\n");
                        }
                        out.push_str(&format!("> {p}\n"));
                    }
                }
                Block::Table { head, rows } => {
                    out.push_str(&table_row(head));
                    out.push_str(&table_row(
                        &head.iter().map(|_| "---".to_string()).collect::<Vec<_>>(),
                    ));
                    for r in rows {
                        out.push_str(&table_row(r));
                    }
                }
            }
        }
    }
    out
}

fn table_row(cells: &[String]) -> String {
    let cells: Vec<String> = cells.iter().map(|c| c.replace('|', "\\|")).collect();
    format!("| {} |\n", cells.join(" | "))
}

/// Escapes text for HTML content and attribute values.
pub use crate::printable::html as escape;

/// Escaped text with `` `code` `` spans marked up.
fn inline(s: &str) -> String {
    let mut out = String::new();
    for (i, piece) in s.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(&format!("<code>{}</code>", escape(piece)));
        } else {
            out.push_str(&escape(piece));
        }
    }
    // An odd number of backquotes: the last one was meant literally.
    if s.matches('`').count() % 2 == 1 {
        return escape(s);
    }
    out
}

const STYLE: &str = "body{font-family:Georgia,serif;max-width:46em;margin:2em auto;padding:0 1em;\
line-height:1.45;color:#222;overflow-wrap:break-word}h1,h2,h3,h4{font-family:Helvetica,Arial,sans-serif}\
h2{border-bottom:1px solid #ccc;margin-top:2em}blockquote{color:#555;border-left:3px solid #ccc;\
margin-left:0;padding-left:1em}ul.steps{font-family:Menlo,Consolas,monospace;font-size:0.9em}\
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:0.2em 0.6em;text-align:right}\
td:first-child,th:first-child{text-align:left}code{background:#f3f3f3}\
.scroll{overflow-x:auto;max-width:100%}";

/// The book as one HTML page with its own style.
pub fn html(book: &Book) -> String {
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    // A phone shows the page at its own width, not as a shrunken desktop page.
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    // The mark by which `meeple doc -o` knows a page it may write over.
    out.push_str(crate::files::RULEBOOK_HTML_MARK);
    out.push('\n');
    out.push_str(&format!("<title>{}</title>\n", escape(&book.title)));
    out.push_str(&format!("<style>{STYLE}</style>\n</head>\n<body>\n"));
    for s in &book.sections {
        let level = s.level.clamp(1, 6);
        out.push_str(&format!("<h{level}>{}</h{level}>\n", inline(&s.heading)));
        for b in &s.blocks {
            match b {
                Block::Para(p) => out.push_str(&format!("<p>{}</p>\n", inline(p))),
                Block::Items(items) => {
                    out.push_str("<ul>\n");
                    for i in items {
                        out.push_str(&format!("<li>{}</li>\n", inline(i)));
                    }
                    out.push_str("</ul>\n");
                }
                Block::Steps(lines) => out.push_str(&steps(lines, "steps")),
                Block::Tree(lines) => out.push_str(&steps(lines, "tree")),
                Block::Note(paras) => {
                    out.push_str("<blockquote>\n");
                    for p in paras {
                        out.push_str(&format!("<p>{}</p>\n", escape(p)));
                    }
                    out.push_str("</blockquote>\n");
                }
                Block::Table { head, rows } => {
                    // A table wider than a phone scrolls by itself, not the whole page.
                    out.push_str("<div class=\"scroll\">\n<table>\n<tr>");
                    for h in head {
                        out.push_str(&format!("<th>{}</th>", escape(h)));
                    }
                    out.push_str("</tr>\n");
                    for r in rows {
                        out.push_str("<tr>");
                        for c in r {
                            out.push_str(&format!("<td>{}</td>", escape(c)));
                        }
                        out.push_str("</tr>\n");
                    }
                    out.push_str("</table>\n</div>\n");
                }
            }
        }
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// Nested lists from lines with depths: a deeper line opens a list inside the open item.
fn steps(lines: &[Line], class: &str) -> String {
    let base = lines.iter().map(|l| l.depth).min().unwrap_or(0);
    let mut out = String::new();
    // For each open list: whether it has an item still open.
    let mut open: Vec<bool> = Vec::new();
    for l in lines {
        let depth = l.depth - base + 1;
        if depth > open.len() {
            while open.len() < depth {
                if open.is_empty() {
                    out.push_str(&format!("<ul class=\"{class}\">\n"));
                } else {
                    out.push_str("\n<ul>\n");
                }
                open.push(false);
            }
        } else {
            while open.len() > depth {
                if open.pop() == Some(true) {
                    out.push_str("</li>\n");
                }
                out.push_str("</ul>\n");
            }
            if open.last() == Some(&true) {
                out.push_str("</li>\n");
            }
        }
        out.push_str(&format!("<li>{}", escape(&l.text)));
        if let Some(last) = open.last_mut() {
            *last = true;
        }
    }
    while let Some(item) = open.pop() {
        if item {
            out.push_str("</li>\n");
        }
        out.push_str("</ul>\n");
    }
    out
}
