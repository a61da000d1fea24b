//! The comparison of two batches as text: each statistic of A and B side by side, the
//! difference `B − A` and its interval, and the statements asked or run on one side only.

use super::clamps::ClampCount;
use super::compare::{CompareReport, Difference};
use super::compare_clamps::ClampCompared;
use super::compare_sites::{ChoicesCompared, NeverRanCompared};
use super::report::{Meta, Report};
use super::text::{
    decision_limit, ending_name, failures, games, more_options, num, pct, signed, signed_fixed,
    statement, OPTIONS_LISTED,
};
use std::fmt::Write;

/// A rate row's difference in percentage points, `+1.5 pts`.
fn points(x: f64) -> String {
    format!("{} pts", signed_fixed(100.0 * x, 1))
}

/// The interval of a difference (`[-1.2, +3.4]`, scaled by `scale`), and ` *` when it excludes
/// 0; `-` when it is unknown.
fn diff_interval(d: &Difference, scale: f64, decimals: usize) -> String {
    match (d.low, d.high) {
        (Some(l), Some(h)) => format!(
            "[{}, {}]{}",
            signed_fixed(scale * l, decimals),
            signed_fixed(scale * h, decimals),
            if d.significant { " *" } else { "" }
        ),
        _ => "-".into(),
    }
}

/// One row of the comparison table.
struct Rows {
    out: String,
    width: usize,
}

impl Rows {
    fn heading(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
    }

    fn row(&mut self, label: &str, a: &str, b: &str, diff: &str, interval: &str) {
        let width = self.width;
        let line = format!("  {label:<width$}  {a:>9}  {b:>9}  {diff:>10}  {interval}");
        let _ = writeln!(self.out, "{}", line.trim_end());
    }

    fn rate(&mut self, label: &str, d: &Difference) {
        self.row(
            label,
            &pct(d.a),
            &pct(d.b),
            &points(d.difference),
            &diff_interval(d, 100.0, 1),
        );
    }

    fn mean(&mut self, label: &str, d: &Difference) {
        self.row(
            label,
            &format!("{:.2}", d.a),
            &format!("{:.2}", d.b),
            &signed_fixed(d.difference, 2),
            &diff_interval(d, 1.0, 2),
        );
    }
}

/// What the two batches played: their games and files, the seats, seeds and bots, how many
/// finished, and how the differences are given.
fn compared_header(out: &mut String, a: &Report, b: &Report) {
    let title = |r: &Report| {
        if r.meta.variants.is_empty() {
            r.meta.game.clone()
        } else {
            format!("{} with {}", r.meta.game, r.meta.variants.join(", "))
        }
    };
    let files = |m: &Meta| {
        let mut s = m.file.clone();
        for v in &m.variant_files {
            s.push_str(&format!(" + {v}"));
        }
        s
    };
    let _ = writeln!(out, "A: {}: {}", title(a), files(&a.meta));
    let _ = writeln!(out, "B: {}: {}", title(b), files(&b.meta));
    let m = &a.meta;
    let last = m.seed.wrapping_add(m.games.saturating_sub(1));
    let _ = writeln!(
        out,
        "{} players, {} each on the same seeds ({} to {last}), bots: {}",
        m.players,
        games(m.games),
        m.seed,
        m.bots_spec()
    );
    decision_limit(out, m);
    let _ = writeln!(
        out,
        "A: {} finished, {} failed; B: {} finished, {} failed\n",
        a.finished, a.failed, b.finished, b.failed
    );
    let _ = writeln!(
        out,
        "B − A with its 95% interval; * marks a difference whose interval excludes 0.\n\
         Rates: Newcombe's hybrid score interval (from the two Wilson intervals), in points.\n\
         Means: Welch's normal approximation.\n"
    );
}

/// The comparison of two batches as text: what was played, then every statistic of A and B
/// with `B − A` and its 95% interval, `*` marking the intervals that exclude 0.
pub fn render_comparison(report: &CompareReport) -> String {
    let (a, b, c) = (&report.a, &report.b, &report.comparison);
    let mut out = String::new();
    compared_header(&mut out, a, b);

    let mut labels: Vec<usize> = vec![24];
    labels.extend(c.wins.iter().map(|w| w.seat.chars().count()));
    labels.extend(
        c.endings
            .iter()
            .map(|e| ending_name(&e.reason).chars().count()),
    );
    labels.extend(c.actions.iter().map(|x| x.name.chars().count()));
    labels.extend(option_labels(&c.choices));
    let width = labels.into_iter().max().unwrap_or(24).min(48);
    let mut rows = Rows {
        out: String::new(),
        width,
    };
    rows.row("", "A", "B", "B − A", "95% interval");
    rows.heading("Wins (sole winner, of finished games)");
    for w in &c.wins {
        rows.rate(&w.seat, &w.difference);
    }
    rows.rate("shared wins", &c.shared_wins);
    rows.rate("nobody wins", &c.nobody_wins);
    rows.heading("Endings (of finished games)");
    for e in &c.endings {
        rows.rate(&ending_name(&e.reason), &e.difference);
    }
    rows.heading("Length in decisions");
    rows.mean("mean", &c.length);
    let (la, lb) = (&a.length, &b.length);
    rows.row(
        "median",
        &num(la.median),
        &num(lb.median),
        &signed(lb.median - la.median),
        "",
    );
    rows.row(
        "5th to 95th percentile",
        &format!("{}-{}", num(la.p5), num(la.p95)),
        &format!("{}-{}", num(lb.p5), num(lb.p95)),
        "",
        "",
    );
    rows.heading("Scores (mean over finished games)");
    for s in &c.scores {
        rows.mean(&s.seat, &s.difference);
    }
    rows.mean("winner's margin", &c.margin);
    rows.heading("Failures (of games played)");
    rows.rate("failed", &c.failed);
    rows.heading("Actions (share of turns; no interval: a game's turns are not independent)");
    for x in &c.actions {
        let share = |s: Option<f64>| s.map_or("-".to_string(), pct);
        let diff = match (x.a, x.b) {
            (Some(sa), Some(sb)) => points(sb - sa),
            _ => String::new(),
        };
        rows.row(&x.name, &share(x.a), &share(x.b), &diff, "");
    }
    let br = &c.branching;
    rows.heading("Branching (legal options per decision; no interval)");
    rows.row(
        "mean",
        &format!("{:.2}", br.a),
        &format!("{:.2}", br.b),
        &signed_fixed(br.difference, 2),
        "",
    );
    compared_choices(&mut rows, &c.choices);
    compared_clamps(&mut rows, &c.clamps);
    compared_never_ran(&mut rows, &c.never_ran, a.played);
    out.push_str(&rows.out);
    for (side, r) in [("A", a), ("B", b)] {
        if !r.failures.is_empty() {
            let _ = writeln!(out, "\nIn {side}:");
            failures(&mut out, r);
        }
    }
    out
}

// Indents of the comparison's choices. `Rows` puts two spaces before a row's label and none
// before a heading, so a statement is a heading and its options sit four columns in from it.
/// A statement answered in both.
const STATEMENT: &str = "  ";
/// Its options (a row's label).
const OPTION: &str = "    ";
/// A statement answered in one only, under its group's heading.
const ONE_SIDE_STATEMENT: &str = "    ";
/// Its options (a row's label).
const ONE_SIDE_OPTION: &str = "      ";

/// The widths of the option labels [`compared_choices`] prints, indent included.
fn option_labels(c: &ChoicesCompared) -> Vec<usize> {
    let both = c.answered.iter().flat_map(|s| {
        s.options
            .iter()
            .take(OPTIONS_LISTED)
            .map(|o| OPTION.len() + o.option.chars().count())
    });
    let one = c.only_a.iter().chain(&c.only_b).flat_map(|s| {
        s.site
            .options
            .iter()
            .take(OPTIONS_LISTED)
            .map(|o| ONE_SIDE_OPTION.len() + o.option.chars().count())
    });
    both.chain(one).collect()
}

/// The choices made as rows of the comparison: each statement answered in both with its
/// options' shares in A and B (the most taken in A first, as many as a report shows), then
/// the statements answered in one only, their shares in that side's column.
fn compared_choices(rows: &mut Rows, c: &ChoicesCompared) {
    if c.answered.is_empty() && c.only_a.is_empty() && c.only_b.is_empty() {
        return;
    }
    rows.heading(
        "Choices made (each option's share of its statement's answers; A's most taken first)",
    );
    for s in &c.answered {
        rows.heading(&format!("{STATEMENT}{}", statement(&s.at, &s.text)));
        rows.row(
            &format!("{OPTION}answered (times)"),
            &s.answered.a.to_string(),
            &s.answered.b.to_string(),
            "",
            "",
        );
        for o in s.options.iter().take(OPTIONS_LISTED) {
            rows.rate(&format!("{OPTION}{}", o.option), &o.difference);
        }
        if let Some(more) = more_options(s.options.len()) {
            rows.heading(&format!("  {OPTION}{more}"));
        }
    }
    for (side, other, list) in [("A", "B", &c.only_a), ("B", "A", &c.only_b)] {
        if list.is_empty() {
            continue;
        }
        rows.heading(&format!(
            "{STATEMENT}asked only in {side} ({other} never asked them, or has no such statement):"
        ));
        for one in list {
            let s = &one.site;
            let absent = absent_from(other, one.in_other);
            rows.heading(&format!(
                "{ONE_SIDE_STATEMENT}{}{absent}",
                statement(&s.at, &s.text)
            ));
            // The shares in the side's own column, `-` in the other's.
            let pair = |mine: String| {
                if side == "A" {
                    (mine, "-".to_string())
                } else {
                    ("-".to_string(), mine)
                }
            };
            let (a, b) = pair(s.answered.to_string());
            rows.row(
                &format!("{ONE_SIDE_OPTION}answered (times)"),
                &a,
                &b,
                "",
                "",
            );
            for o in s.options.iter().take(OPTIONS_LISTED) {
                let (a, b) = pair(pct(o.share));
                rows.row(&format!("{ONE_SIDE_OPTION}{}", o.option), &a, &b, "", "");
            }
            if let Some(more) = more_options(s.options.len()) {
                rows.heading(&format!("  {ONE_SIDE_OPTION}{more}"));
            }
        }
    }
}

/// The numbers held to their bounds: each assignment that clamped in A or B, the share of
/// games in which it did, and how many times over all of them.
fn compared_clamps(rows: &mut Rows, clamps: &[ClampCompared]) {
    if clamps.is_empty() {
        return;
    }
    rows.heading("Numbers clamped to their bounds (share of games played in which each did)");
    for c in clamps {
        let absent = match (&c.a, &c.b) {
            (None, _) => absent_from("A", false),
            (_, None) => absent_from("B", false),
            _ => String::new(),
        };
        rows.heading(&format!(
            "{STATEMENT}{}{absent}",
            statement(&c.site.site.at, &c.site.site.text)
        ));
        rows.rate(&format!("{OPTION}games"), &c.games);
        let times = |n: &Option<ClampCount>| n.map_or("-".to_string(), |n| n.times.to_string());
        rows.row(
            &format!("{OPTION}times"),
            &times(&c.a),
            &times(&c.b),
            "",
            "",
        );
    }
}

/// The rules never run as the comparison's last section: in both, in A only, in B only.
fn compared_never_ran(rows: &mut Rows, n: &NeverRanCompared, played: u64) {
    if n.is_empty() {
        return;
    }
    rows.heading(&format!(
        "Rules never run (in {} of each; each block by its first statement)",
        games(played)
    ));
    if !n.both.is_empty() {
        rows.heading("  in both A and B:");
        for site in &n.both {
            rows.heading(&format!("    {}", statement(&site.at, &site.text)));
        }
    }
    for (side, other, list) in [("A", "B", &n.only_a), ("B", "A", &n.only_b)] {
        if list.is_empty() {
            continue;
        }
        rows.heading(&format!(
            "  only in {side} ({other} ran them, or has no such block):"
        ));
        for one in list {
            let absent = absent_from(other, one.in_other);
            rows.heading(&format!(
                "    {}{absent}",
                statement(&one.site.at, &one.site.text)
            ));
        }
    }
}

/// The note beside a statement or block found on one side only, when the other side's rules
/// do not have it at all.
fn absent_from(other: &str, in_other: bool) -> String {
    if in_other {
        String::new()
    } else {
        format!("  (not in {other})")
    }
}
