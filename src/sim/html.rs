//! `meeple sim --html FILE`: the report as one self-contained HTML page — its parameters, win
//! rate per seat with 95% intervals, a histogram of game length and a box plot of each seat's
//! scores, then the text report. Charts are inline SVG drawn by `plotters`; the page loads no
//! script, font, style sheet or image. With `--against`, A and B are drawn side by side (win
//! rates, scores) or overlaid (length), in two colours named in a legend.
//!
//! Each chart is drawn twice, wide and narrow, and the style sheet shows the one that keeps its
//! labels readable on the screen at hand (a phone gets the narrow one); each says what it shows
//! in words too, with its main numbers ([`super::captions`]), for a screen reader and for anyone
//! who wants the numbers.

use super::captions;
use super::charts::{self, Area, COLOURS, NARROW, NARROW_BELOW, WIDE};
use super::report::Report;
use super::run::GameRecord;
use crate::files::SIM_PAGE_MARK;
use plotters::prelude::*;
use std::fmt::Write;

/// One batch on the page: its label in a comparison (`A`, `B`; empty alone), report and records.
#[derive(Debug, Clone, Copy)]
pub struct Side<'a> {
    /// `A` or `B` in a comparison, empty for a single batch.
    pub label: &'a str,
    /// The batch's report.
    pub report: &'a Report,
    /// Its per-game records, in game order.
    pub records: &'a [GameRecord],
}

impl Side<'_> {
    /// The game's title with its variants.
    pub(super) fn title(&self) -> String {
        let m = &self.report.meta;
        if m.variants.is_empty() {
            m.game.clone()
        } else {
            format!("{} with {}", m.game, m.variants.join(", "))
        }
    }

    /// `A: Dice Race`, or the title alone.
    fn legend(&self) -> String {
        if self.label.is_empty() {
            self.title()
        } else {
            format!("{}: {}", self.label, self.title())
        }
    }

    /// Its finished games' records.
    pub(super) fn finished(&self) -> impl Iterator<Item = &GameRecord> {
        self.records.iter().filter(|r| r.finished())
    }
}

pub use crate::printable::html as escape;

/// The page for one batch, or two compared (`sides` holds one or two), with `text` (the text
/// report) at its end.
pub fn page(sides: &[Side], text: &str) -> Result<String, String> {
    let first = sides.first().ok_or("no batch to draw")?;
    let meta = &first.report.meta;
    let title = match sides {
        [one] => format!("{}: {} games", one.title(), meta.games),
        [a, b, ..] => format!("{} against {}", a.title(), b.title()),
        [] => unreachable!(),
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         {SIM_PAGE_MARK}\n\
         <title>{} · meeple sim</title>\n<style>{}</style>\n</head>\n<body>\n",
        escape(&title),
        style()
    );
    let _ = writeln!(out, "<h1>{}</h1>", escape(&title));
    // A table wider than a phone scrolls by itself rather than widening the page.
    out.push_str("<div class=\"scroll\">\n");
    parameters(&mut out, sides);
    out.push_str("</div>\n");
    if sides.len() > 1 {
        legend(&mut out, sides);
    }

    let seats = meta.seats.len();
    let _ = writeln!(out, "<h2>Win rate per seat</h2>");
    let _ = writeln!(
        out,
        "<p class=\"note\">Sole wins of the finished games; the bars' whiskers are the 95% Wilson \
         intervals; the dashed line is an even share, 1/{seats} = {:.1}%.</p>",
        100.0 / seats.max(1) as f64
    );
    figure(
        &mut out,
        "wins",
        "Win rate per seat",
        &captions::wins(sides),
        |root, size| charts::wins(root, size, sides),
    )?;

    let _ = writeln!(out, "<h2>Game length</h2>");
    let _ = writeln!(
        out,
        "<p class=\"note\">Decisions per finished game (every turn and every choice), as a share \
         of the finished games; the dashed line{} the mean.</p>",
        if sides.len() > 1 { "s mark" } else { " marks" }
    );
    figure(
        &mut out,
        "length",
        "Game length",
        &captions::length(sides),
        |root, size| charts::length(root, size, sides),
    )?;

    let _ = writeln!(out, "<h2>Scores per seat</h2>");
    let _ = writeln!(
        out,
        "<p class=\"note\">Final scores of the finished games: the box spans the middle half \
         (quartiles) with the median across it, the whiskers reach the 5th and 95th percentiles, \
         the dot is the mean.</p>"
    );
    figure(
        &mut out,
        "scores",
        "Scores per seat",
        &captions::scores(sides),
        |root, size| charts::scores(root, size, sides),
    )?;

    let _ = writeln!(out, "<h2>The report</h2>\n<pre>{}</pre>", escape(text));
    let _ = writeln!(
        out,
        "<footer>Made by <code>meeple sim</code> {}.</footer>\n</body>\n</html>",
        env!("CARGO_PKG_VERSION")
    );
    Ok(out)
}

/// The page's style: the narrow drawings only below [`NARROW_BELOW`] pixels, the wide ones only
/// above; tables and the report scroll sideways inside the page.
fn style() -> String {
    format!(
        "body{{font-family:sans-serif;color:#222;background:#fff;max-width:1000px;\
margin:1.5em auto;padding:0 1em;line-height:1.4;overflow-wrap:break-word}}h1{{font-size:1.5em}}\
h2{{font-size:1.2em;margin-top:1.6em;margin-bottom:.2em}}.note{{color:#555;margin-top:0;\
font-size:.92em}}table{{border-collapse:collapse}}th,td{{text-align:left;\
padding:.15em .8em .15em 0;vertical-align:top}}th{{color:#555;font-weight:normal}}\
.scroll{{overflow-x:auto;max-width:100%}}figure{{margin:0}}\
figcaption{{font-size:.92em;margin-top:.3em}}svg{{max-width:100%;height:auto;display:block}}\
svg.narrow{{display:none}}@media (max-width:{NARROW_BELOW}px){{svg.wide{{display:none}}\
svg.narrow{{display:block}}}}pre{{background:#f6f6f6;padding:.8em;overflow-x:auto;\
font-size:.85em}}.swatch{{display:inline-block;width:1em;height:1em;vertical-align:-.15em;\
margin-right:.35em}}.legend span.item{{margin-right:1.5em}}footer{{color:#777;font-size:.85em;\
margin-top:2em}}"
    )
}

/// The run's parameters: one column, or one a side.
fn parameters(out: &mut String, sides: &[Side]) {
    let meta = &sides[0].report.meta;
    let last = meta.seed.wrapping_add(meta.games.saturating_sub(1));
    out.push_str("<table class=\"parameters\">\n");
    if sides.len() > 1 {
        out.push_str("<tr><th></th>");
        for s in sides {
            let _ = write!(out, "<th>{}</th>", escape(s.label));
        }
        out.push_str("</tr>\n");
    }
    let mut row = |name: &str, cell: &dyn Fn(&Side) -> String| {
        let _ = write!(out, "<tr><th>{}</th>", escape(name));
        for s in sides {
            let _ = write!(out, "<td>{}</td>", escape(&cell(s)));
        }
        out.push_str("</tr>\n");
    };
    row("game", &|s| s.title());
    row("rules file", &|s| {
        let m = &s.report.meta;
        let mut f = m.file.clone();
        for v in &m.variant_files {
            f.push_str(&format!(" + {v}"));
        }
        f
    });
    row("players", &|s| s.report.meta.players.to_string());
    row("seats", &|s| s.report.meta.seats.join(", "));
    row("games", &|s| match s.report.meta.shard {
        Some(sh) => format!(
            "{} of {} (shard {sh})",
            s.report.played, s.report.meta.games
        ),
        None => s.report.meta.games.to_string(),
    });
    row("seeds", &|_| format!("{} to {last}", meta.seed));
    row("bots", &|s| s.report.meta.bots_spec());
    row("finished", &|s| s.report.finished.to_string());
    row("failed", &|s| s.report.failed.to_string());
    out.push_str("</table>\n");
}

/// The colours of A and B with their titles.
fn legend(out: &mut String, sides: &[Side]) {
    out.push_str("<p class=\"legend\">");
    for (i, s) in sides.iter().enumerate() {
        let RGBColor(r, g, b) = COLOURS[i % 2];
        let _ = write!(
            out,
            "<span class=\"item\"><span class=\"swatch\" style=\"background:#{r:02x}{g:02x}{b:02x}\"></span>{}</span>",
            escape(&s.legend())
        );
    }
    out.push_str("</p>\n");
}

/// One chart as a `<figure>`: drawn wide and narrow into inline SVG (without the `xmlns`
/// attribute, which HTML does not need, so the page names no address), each named by `label`
/// and described by the `caption` in words below them.
fn figure(
    out: &mut String,
    id: &str,
    label: &str,
    caption: &str,
    draw: impl Fn(&Area, charts::Size) -> Result<(), String>,
) -> Result<(), String> {
    let _ = writeln!(out, "<figure id=\"{id}\">");
    for (size, class) in [(WIDE, "wide"), (NARROW, "narrow")] {
        let mut buf = String::new();
        {
            let root =
                SVGBackend::with_string(&mut buf, (size.width, size.height)).into_drawing_area();
            root.fill(&WHITE).map_err(|e| e.to_string())?;
            draw(&root, size)?;
            root.present().map_err(|e| e.to_string())?;
        }
        let buf = buf.replacen(
            " xmlns=\"http://www.w3.org/2000/svg\"",
            &format!(
                " class=\"{class}\" role=\"img\" aria-label=\"{}\" aria-describedby=\"{id}-words\"",
                escape(label)
            ),
            1,
        );
        out.push_str(&buf);
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "<figcaption id=\"{id}-words\">{}</figcaption>\n</figure>",
        escape(caption)
    );
    Ok(())
}
