//! The text rendering of a simulation [`Report`] and of a [`CompareReport`], and the per-game
//! CSV. They depend only on the report (and records), so a merged report prints exactly as a
//! single run.

use super::compare::{CompareReport, Difference};
use super::compare_sites::{ChoicesCompared, NeverRanCompared};
use super::report::{default_max_decisions, FailureReport, Meta, Report};
use super::run::GameRecord;
use super::stats::Proportion;
use std::fmt::Write;

/// Failures listed by seed for each failing rule; the rest are counted (all are in `--json`).
const FAILURES_LISTED: usize = 6;
/// Options listed for each decision statement, the most taken; the rest are counted.
const OPTIONS_LISTED: usize = 8;

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn interval(p: &Proportion) -> String {
    format!("[{}, {}]", pct(p.low), pct(p.high))
}

/// `1 game`, `3 games`.
fn games(n: u64) -> String {
    if n == 1 {
        "1 game".into()
    } else {
        format!("{n} games")
    }
}

/// The share of `n` in `of`, as `12.5%` (`-` for none).
fn share(n: u64, of: u64) -> String {
    if of == 0 {
        "-".into()
    } else {
        pct(n as f64 / of as f64)
    }
}

/// A number with at most one decimal, without a trailing `.0`.
fn num(x: f64) -> String {
    let s = format!("{x:.1}");
    s.strip_suffix(".0").map_or(s.clone(), str::to_string)
}

/// [`num`] with its sign: `+3`, `-0.5`, `+0`.
fn signed(x: f64) -> String {
    if x < 0.0 {
        num(x)
    } else {
        format!("+{}", num(x))
    }
}

/// The report as text, one section a paragraph.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    header(&mut out, report);
    wins(&mut out, report);
    if report.finished > 0 {
        endings_and_length(&mut out, report);
        scores(&mut out, report);
    }
    actions(&mut out, report);
    failures(&mut out, report);
    out
}

fn header(out: &mut String, r: &Report) {
    let m = &r.meta;
    let variants = if m.variants.is_empty() {
        String::new()
    } else {
        format!(" with {}", m.variants.join(", "))
    };
    let _ = writeln!(out, "{}{variants}: {}", m.game, m.file);
    let last = m.seed.wrapping_add(m.games.saturating_sub(1));
    let _ = writeln!(
        out,
        "{} players, {} (seeds {} to {last}), bots: {}",
        m.players,
        games(m.games),
        m.seed,
        m.bots_spec()
    );
    decision_limit(out, m);
    if let Some(s) = m.shard {
        let _ = writeln!(
            out,
            "shard {s}: {} (game i when i % {} = {})",
            games(r.played),
            s.count,
            s.index - 1
        );
    }
    let _ = writeln!(out, "{} finished, {} failed\n", r.finished, r.failed);
}

/// A line saying the batch stopped games early, when `--max-decisions` set a limit.
fn decision_limit(out: &mut String, m: &Meta) {
    if m.max_decisions != default_max_decisions() {
        let _ = writeln!(
            out,
            "at most {} decisions a game (--max-decisions)",
            m.max_decisions
        );
    }
}

/// The width of a column of seat names.
fn seat_column(r: &Report) -> usize {
    r.meta
        .seats
        .iter()
        .map(|s| s.len())
        .max()
        .unwrap_or(2)
        .max(4)
}

fn wins(out: &mut String, r: &Report) {
    if r.finished == 0 {
        let _ = writeln!(out, "No game finished.\n");
        return;
    }
    let width = seat_column(r);
    let _ = writeln!(
        out,
        "Wins (sole winner, of {} finished; 95% Wilson interval)",
        r.finished
    );
    for w in &r.wins {
        let _ = writeln!(
            out,
            "  {:<width$}  {:>7}  {:>6}  {:<16}  shared {}",
            w.seat,
            w.win.count,
            pct(w.win.rate),
            interval(&w.win),
            w.shared
        );
    }
    let _ = writeln!(
        out,
        "  shared wins: {} ({}); nobody wins: {} ({})",
        games(r.shared_wins),
        share(r.shared_wins, r.finished),
        games(r.nobody_wins),
        share(r.nobody_wins, r.finished)
    );
    if let Some(f) = &r.first_seat {
        let verdict = if f.expected < f.win.low {
            "an advantage"
        } else if f.expected > f.win.high {
            "a disadvantage"
        } else {
            "no clear advantage"
        };
        let _ = writeln!(
            out,
            "First-seat advantage: {} wins {} {} against 1/{} = {} ({:+.1} points): {verdict}",
            f.seat,
            pct(f.win.rate),
            interval(&f.win),
            r.meta.players,
            pct(f.expected),
            100.0 * f.difference
        );
    }
    out.push('\n');
}

fn endings_and_length(out: &mut String, r: &Report) {
    let _ = writeln!(out, "Endings");
    for e in &r.endings {
        let name = ending_name(&e.reason);
        let _ = writeln!(
            out,
            "  {:>7}  {:>6}  {name}",
            e.games,
            share(e.games, r.finished)
        );
    }
    let l = &r.length;
    let _ = writeln!(
        out,
        "\nLength in decisions: mean {}, median {}, 5th percentile {}, 95th percentile {} (min {}, max {})",
        num(l.mean),
        num(l.median),
        num(l.p5),
        num(l.p95),
        l.min,
        l.max
    );
    out.push('\n');
}

fn scores(out: &mut String, r: &Report) {
    let width = seat_column(r);
    let _ = writeln!(
        out,
        "Scores  {:<width$}  {:>8}  {:>6}  {:>6}",
        "", "mean", "min", "max"
    );
    for s in &r.scores {
        let _ = writeln!(
            out,
            "        {:<width$}  {:>8.2}  {:>6}  {:>6}",
            s.seat, s.mean, s.min, s.max
        );
    }
    let m = &r.margin;
    if m.games > 0 {
        let _ = writeln!(
            out,
            "Winner's margin over the runner-up: mean {}, median {} ({})",
            num(m.mean),
            num(m.median),
            games(m.games)
        );
    }
    out.push('\n');
}

fn actions(out: &mut String, r: &Report) {
    // A game whose every decision is a `choose` or `ask` has no actions to count.
    if !r.actions.is_empty() {
        let turns: u64 = r.actions.iter().map(|a| a.taken).sum();
        let _ = writeln!(out, "Actions taken ({turns} turns)");
        let width = r.actions.iter().map(|a| a.name.len()).max().unwrap_or(0);
        for a in &r.actions {
            let _ = writeln!(
                out,
                "  {:<width$}  {:>9}  {:>6}",
                a.name,
                a.taken,
                pct(a.share)
            );
        }
        if !r.never_taken.is_empty() {
            let _ = writeln!(
                out,
                "  never taken in {}: {}",
                games(r.played),
                r.never_taken.join(", ")
            );
        }
        out.push('\n');
    }
    choices(out, r);
    never_ran(out, r);
    let b = &r.branching;
    let _ = writeln!(
        out,
        "Branching: {:.2} legal options per decision on average, at most {} ({} decisions)\n",
        b.mean, b.max, b.decisions
    );
}

/// A statement as a report names it: its place, then its first line (cut when long, see
/// [`super::sites::Site`]).
fn statement(at: &str, text: &str) -> String {
    format!("{at}  {text}")
}

/// The line saying how many options a list left out, if any.
fn more_options(total: usize) -> Option<String> {
    match total.saturating_sub(OPTIONS_LISTED) {
        0 => None,
        more => Some(format!("... {more} more options (every one is in --json)")),
    }
}

/// The blocks of statements no game ran, by their first statement.
fn never_ran(out: &mut String, r: &Report) {
    if r.never_ran.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "Rules never run in {} (each block by its first statement; the blocks inside it are not \
         listed again):",
        games(r.played)
    );
    for site in &r.never_ran {
        let _ = writeln!(out, "  {}", statement(&site.at, &site.text));
    }
    out.push('\n');
}

/// Each decision statement's answers, the most taken options first; the statements no game
/// asked.
fn choices(out: &mut String, r: &Report) {
    let c = &r.choices;
    if c.answered.is_empty() && c.never_asked.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "Choices made (each choose, ask and secretly statement; options most taken first)"
    );
    for site in &c.answered {
        let _ = writeln!(out, "  {}", statement(&site.at, &site.text));
        let _ = writeln!(out, "      answered {} times", site.answered);
        let width = site
            .options
            .iter()
            .take(OPTIONS_LISTED)
            .map(|o| o.option.chars().count())
            .max()
            .unwrap_or(0);
        for o in site.options.iter().take(OPTIONS_LISTED) {
            let _ = writeln!(
                out,
                "        {:<width$}  {:>9}  {:>6}",
                o.option,
                o.taken,
                pct(o.share)
            );
        }
        if let Some(more) = more_options(site.options.len()) {
            let _ = writeln!(out, "        {more}");
        }
    }
    if !c.never_asked.is_empty() {
        let _ = writeln!(
            out,
            "  never asked in {} (never reached, or never with two options or more):",
            games(r.played)
        );
        for site in &c.never_asked {
            let _ = writeln!(out, "    {}", statement(&site.at, &site.text));
        }
    }
    out.push('\n');
}

fn failures(out: &mut String, r: &Report) {
    if r.failures.is_empty() {
        let _ = writeln!(out, "Failures: none");
        return;
    }
    let _ = writeln!(
        out,
        "Failures: {} of {} ({}); every one is in --json and --csv",
        r.failed,
        games(r.played),
        share(r.failed, r.played)
    );
    // One paragraph a failing rule (code and place), in order of first failure.
    let mut sites: Vec<(&str, &str, Vec<&FailureReport>)> = Vec::new();
    for f in &r.failures {
        match sites
            .iter_mut()
            .find(|(code, at, _)| *code == f.code && *at == f.at)
        {
            Some((_, _, list)) => list.push(f),
            None => sites.push((&f.code, &f.at, vec![f])),
        }
    }
    for (code, at, list) in &sites {
        let first = list[0];
        let _ = writeln!(
            out,
            "  {code} at {at}, in {}: {}",
            games(list.len() as u64),
            first.message
        );
        let shown: Vec<String> = list
            .iter()
            .take(FAILURES_LISTED)
            .map(|f| format!("seed {} (decision {})", f.seed, f.decision))
            .collect();
        let more = match list.len().saturating_sub(FAILURES_LISTED) {
            0 => String::new(),
            n => format!(", and {n} more"),
        };
        let _ = writeln!(out, "    {}{more}", shown.join(", "));
        let _ = writeln!(out, "    replay: {}", first.reproduce);
    }
}

/// A CSV field, quoted when it needs to be.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One row a game: index, seed, decisions, winners (seat names, space-separated), one score
/// column a seat, the `end game` reason and the failure
/// (`decision D: code at file:line:col: message`).
pub fn csv(meta: &Meta, records: &[GameRecord]) -> String {
    let mut out = String::from("index,seed,decisions,winners");
    for s in &meta.seats {
        out.push(',');
        out.push_str(&field(&format!("score_{s}")));
    }
    out.push_str(",reason,failure\n");
    for r in records {
        let winners: Vec<&str> = r
            .winners
            .iter()
            .filter_map(|w| meta.seats.get(*w as usize).map(String::as_str))
            .collect();
        let _ = write!(
            out,
            "{},{},{},{}",
            r.index,
            r.seed,
            r.decisions,
            field(&winners.join(" "))
        );
        for p in 0..meta.seats.len() {
            out.push(',');
            if let Some(s) = r.scores.get(p) {
                out.push_str(&s.to_string());
            }
        }
        let failure = r
            .failure
            .as_ref()
            .map(|f| {
                format!(
                    "decision {}: {} at {}: {}",
                    f.decision, f.code, f.at, f.message
                )
            })
            .unwrap_or_default();
        let _ = writeln!(
            out,
            ",{},{}",
            field(r.reason.as_deref().unwrap_or("")),
            field(&failure)
        );
    }
    out
}

// ---------------------------------------------------------------------------- comparison

/// A rate row's difference in percentage points, `+1.5 pts`.
fn points(x: f64) -> String {
    format!("{:+.1} pts", 100.0 * x)
}

/// The interval of a difference (`[-1.2, +3.4]`, scaled by `scale`), and ` *` when it excludes
/// 0; `-` when it is unknown.
fn diff_interval(d: &Difference, scale: f64, decimals: usize) -> String {
    match (d.low, d.high) {
        (Some(l), Some(h)) => format!(
            "[{:+.decimals$}, {:+.decimals$}]{}",
            scale * l,
            scale * h,
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
            &format!("{:+.2}", d.difference),
            &diff_interval(d, 1.0, 2),
        );
    }
}

/// The comparison of two batches as text: what was played, then every statistic of A and B
/// with `B − A` and its 95% interval, `*` marking the intervals that exclude 0.
pub fn render_comparison(report: &CompareReport) -> String {
    let (a, b, c) = (&report.a, &report.b, &report.comparison);
    let mut out = String::new();
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
    decision_limit(&mut out, m);
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
        &format!("{:+.2}", br.difference),
        "",
    );
    compared_choices(&mut rows, &c.choices);
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
            let absent = if one.in_other {
                String::new()
            } else {
                format!("  (not in {other})")
            };
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
            let absent = if one.in_other {
                String::new()
            } else {
                format!("  (not in {other})")
            };
            rows.heading(&format!(
                "    {}{absent}",
                statement(&one.site.at, &one.site.text)
            ));
        }
    }
}

/// `normal end`, or `end game "reason"`.
fn ending_name(reason: &Option<String>) -> String {
    match reason {
        Some(reason) => format!("end game \"{reason}\""),
        None => "normal end".into(),
    }
}
