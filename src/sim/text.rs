//! The text rendering of a simulation [`Report`], and the per-game CSV (a comparison's text is
//! in `text_compare`). They depend only on the report (and records), so a merged report prints
//! exactly as a single run.

use super::report::{default_max_decisions, FailureReport, Meta, Report};
use super::run::GameRecord;
use super::stats::Proportion;
use std::fmt::Write;

/// Failures listed by seed for each failing rule; the rest are counted (all are in `--json`).
const FAILURES_LISTED: usize = 6;
/// Options listed for each decision statement, the most taken; the rest are counted.
pub(super) const OPTIONS_LISTED: usize = 8;

pub(super) fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn interval(p: &Proportion) -> String {
    format!("[{}, {}]", pct(p.low), pct(p.high))
}

/// `1 game`, `3 games`.
pub(super) fn games(n: u64) -> String {
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
pub(super) fn num(x: f64) -> String {
    let s = format!("{x:.1}");
    // -0.04 rounds to zero, and zero has no sign.
    let s = if s == "-0.0" { "0.0".to_string() } else { s };
    s.strip_suffix(".0").map_or(s.clone(), str::to_string)
}

/// [`num`] with its sign: `+3`, `-0.5`, `+0`.
pub(super) fn signed(x: f64) -> String {
    let s = num(x);
    if s.starts_with('-') {
        s
    } else {
        format!("+{s}")
    }
}

/// `x` with its sign and `decimals` decimals; a value that rounds to zero is `+0.0`, never
/// `-0.0` (a difference of -0.0004 is no difference a designer should read as a loss).
pub(super) fn signed_fixed(x: f64, decimals: usize) -> String {
    let s = format!("{x:+.decimals$}");
    match s.strip_prefix('-') {
        Some(digits) if digits.bytes().all(|b| b == b'0' || b == b'.') => format!("+{digits}"),
        _ => s,
    }
}

/// The report as text, one section a paragraph.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    header(&mut out, report);
    wins(&mut out, report);
    if report.finished > 0 {
        goal(&mut out, report);
        endings_and_length(&mut out, report);
        eliminations(&mut out, report);
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
    let _ = writeln!(out, "{} finished, {} failed", r.finished, r.failed);
    imagined(out, r);
    out.push('\n');
}

/// A line on the games the bots imagined, when any did.
fn imagined(out: &mut String, r: &Report) {
    let i = &r.imagined;
    if i.games == 0 {
        return;
    }
    let roughly = if i.approximate > 0 {
        format!(
            "; {} ({}) agree but are weighed only roughly",
            i.approximate,
            share(i.approximate, i.games)
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "imagined games: {} drawn from what each seat saw; {} ({}) agree with it only in part{roughly} \
         (`meeple help bots`)",
        i.games,
        i.fallbacks,
        share(i.fallbacks, i.games)
    );
}

/// A line saying the batch stopped games early, when `--max-decisions` set a limit.
pub(super) fn decision_limit(out: &mut String, m: &Meta) {
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
            "First-seat advantage: {} wins {} {} against 1/{} = {} ({} points): {verdict}",
            f.seat,
            pct(f.win.rate),
            interval(&f.win),
            r.meta.players,
            pct(f.expected),
            signed_fixed(100.0 * f.difference, 1)
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

/// The goal the bots played for, where the rules declare one: a shared goal as the one
/// result of a cooperative game, with its distribution.
fn goal(out: &mut String, r: &Report) {
    let Some(g) = &r.goals else { return };
    let what = if g.shared {
        "Shared goal (one value every seat plays for: a cooperative game)"
    } else {
        "Goal (each seat's own, pooled)"
    };
    let _ = writeln!(
        out,
        "{what}: mean {:.2} [{:.2}, {:.2}] over {}, median {}, 5th percentile {}, 95th percentile {} (min {}, max {})",
        g.mean,
        g.low,
        g.high,
        games(g.games),
        num(g.median),
        num(g.p5),
        num(g.p95),
        g.min,
        g.max
    );
    if g.shared {
        let most = g
            .distribution
            .iter()
            .map(|c| c.games)
            .max()
            .unwrap_or(1)
            .max(1);
        for c in &g.distribution {
            // A bar of up to 40 marks, so that the shape reads at a glance.
            let bar = "#".repeat(((c.games * 40).div_ceil(most)) as usize);
            let _ = writeln!(
                out,
                "  {:>6}  {:>7}  {:>6}  {bar}",
                c.value,
                c.games,
                share(c.games, g.games)
            );
        }
    } else {
        for (seat, mean) in r.meta.seats.iter().zip(&g.seats) {
            let _ = writeln!(out, "  {seat}: mean {mean:.2}");
        }
    }
    out.push('\n');
}

/// How often each seat was put out of the game, and when, where the rules put anyone out.
fn eliminations(out: &mut String, r: &Report) {
    if r.eliminations.is_empty() {
        return;
    }
    let width = seat_column(r);
    let _ = writeln!(
        out,
        "Out of the game  {:<width$}  {:>7}  {:>6}  {:>16}",
        "", "games", "share", "after (mean)"
    );
    for s in &r.eliminations {
        let after = if s.out.count == 0 {
            "-".to_string()
        } else {
            format!("{:.1} decisions", s.mean_decisions)
        };
        let _ = writeln!(
            out,
            "                 {:<width$}  {:>7}  {:>6}  {after:>16}",
            s.seat,
            s.out.count,
            pct(s.out.rate)
        );
    }
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
    clamps(out, r);
    let b = &r.branching;
    let _ = writeln!(
        out,
        "Branching: {:.2} legal options per decision on average, at most {} ({} decisions)\n",
        b.mean, b.max, b.decisions
    );
}

/// A statement as a report names it: its place, then its first line (cut when long, see
/// [`super::sites::Site`]).
pub(super) fn statement(at: &str, text: &str) -> String {
    format!("{at}  {text}")
}

/// The line saying how many options a list left out, if any.
pub(super) fn more_options(total: usize) -> Option<String> {
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

/// The assignments that held a number to its variable's bounds, in source order.
fn clamps(out: &mut String, r: &Report) {
    if r.clamps.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "Numbers clamped to their bounds in {} (assignments to an `int in lo..hi` that went past \
         an end):",
        games(r.played)
    );
    for c in &r.clamps {
        let _ = writeln!(out, "  {}", statement(&c.site.site.at, &c.site.site.text));
        let _ = writeln!(
            out,
            "      {} in {}: {} times, in {}",
            c.site.variable,
            c.site.rule,
            c.count.times,
            games(c.count.games)
        );
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

pub(super) fn failures(out: &mut String, r: &Report) {
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

/// `normal end`, or `end game "reason"`.
pub(super) fn ending_name(reason: &Option<String>) -> String {
    match reason {
        Some(reason) => format!("end game \"{reason}\""),
        None => "normal end".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::{num, signed, signed_fixed};

    #[test]
    fn a_difference_that_rounds_to_zero_has_no_minus_sign() {
        assert_eq!(signed_fixed(-0.0004, 1), "+0.0");
        assert_eq!(signed_fixed(-0.0, 2), "+0.00");
        assert_eq!(
            signed_fixed(-0.05, 1),
            "-0.1",
            "rounds away from zero: a real loss"
        );
        assert_eq!(signed_fixed(-0.004, 2), "+0.00");
        assert_eq!(signed_fixed(-0.006, 2), "-0.01");
        assert_eq!(signed_fixed(1.25, 1), "+1.2");
        assert_eq!(num(-0.04), "0");
        assert_eq!(num(-0.4), "-0.4");
        assert_eq!(num(3.0), "3");
        assert_eq!(signed(-0.04), "+0");
        assert_eq!(signed(-2.0), "-2");
        assert_eq!(signed(0.5), "+0.5");
    }
}
