//! The three charts of `meeple sim --html`, drawn by `plotters` into SVG at a given size: win
//! rate per seat, game length, scores per seat, with A and B side by side or overlaid.

use super::html::Side;
use super::stats::{mean, percentile, sorted};
use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;

/// The colours of A and B: a blue and an orange that stay apart for the common colour-vision
/// deficiencies and print legibly in grey.
pub(super) const COLOURS: [RGBColor; 2] = [RGBColor(0x1f, 0x5f, 0xa8), RGBColor(0xe0, 0x7b, 0x10)];
const INK: RGBColor = RGBColor(0x22, 0x22, 0x22);
const GRID: RGBColor = RGBColor(0xdd, 0xdd, 0xdd);
const FONT: &str = "sans-serif";
/// Font sizes in plotters' units (the SVG's `font-size` is 1/1.24 of them): tick labels, axis
/// descriptions, and text inside the chart.
const LABEL: f64 = 19.0;
const DESC: f64 = 20.0;
const INNER: f64 = 18.0;

/// A chart's size in pixels and what follows from it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Size {
    pub(super) width: u32,
    pub(super) height: u32,
    /// The phone's drawing: fewer ticks, a narrower axis of labels, shorter notes.
    narrow: bool,
}

/// The drawing for a wide screen: at 960 pixels its labels are 15 pixels high, and still 11 on
/// a screen of 760 (the page's padding taken off).
pub(super) const WIDE: Size = Size {
    width: 960,
    height: 400,
    narrow: false,
};
/// The drawing for a phone: 360 pixels, about a 390-pixel screen less the page's padding, so
/// its labels keep their size there (and 12 pixels at 320).
pub(super) const NARROW: Size = Size {
    width: 360,
    height: 400,
    narrow: true,
};
/// The widest screen shown the narrow drawing, in CSS pixels: [`WIDE`]'s labels would be
/// under 11 pixels below it.
pub(super) const NARROW_BELOW: u32 = 760;

impl Size {
    /// The width of the axis of labels on the left.
    fn y_area(self) -> u32 {
        if self.narrow {
            68
        } else {
            84
        }
    }

    /// The width of the plotting area: the chart less its margins and the left axis.
    fn plot_width(self) -> f64 {
        f64::from(self.width - self.y_area() - 12 - 28)
    }
}

pub(super) type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// Where the `i`-th of `k` bars of a category sits: its left and right edges around the
/// category's centre `x`, bars filling `0.7` of the category's width together.
fn bar_span(x: f64, i: usize, k: usize) -> (f64, f64) {
    let w = 0.7 / k as f64;
    let left = x - 0.35 + i as f64 * w;
    (left + 0.08 * w, left + 0.92 * w)
}

/// A round upper end for an axis from 0 that holds `max`.
fn nice_top(max: f64) -> f64 {
    if max <= 0.0 {
        return 1.0;
    }
    let step = 10f64.powf(max.log10().floor());
    for m in [1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0] {
        if m * step >= max {
            return m * step;
        }
    }
    10.0 * step
}

/// The x axis of seats: seat `i` at `i`, from `-0.5` to `n - 0.5`, one tick a seat labelled with
/// its name.
#[derive(Clone)]
struct Seats(Vec<String>);

impl Ranged for Seats {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let n = self.0.len().max(1) as f64;
        let t = (value + 0.5) / n;
        limit.0 + (t * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, _hint: Hint) -> Vec<f64> {
        (0..self.0.len()).map(|i| i as f64).collect()
    }

    fn range(&self) -> Range<f64> {
        -0.5..self.0.len() as f64 - 0.5
    }
}

impl ValueFormatter<f64> for Seats {
    fn format_ext(&self, value: &f64) -> String {
        let i = value.round();
        if (value - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < self.0.len() {
            self.0[i as usize].clone()
        } else {
            String::new()
        }
    }
}

/// A chart with one column per seat and a numeric vertical axis, its grid and labels drawn.
fn seat_axes<'a, 'b>(
    root: &'a Area<'b>,
    size: Size,
    seats: &[String],
    y: Range<f64>,
    y_desc: &str,
    y_format: &dyn Fn(&f64) -> String,
) -> Result<
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<Seats, plotters::coord::types::RangedCoordf64>>,
    String,
> {
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .margin_right(28)
        .x_label_area_size(60)
        .y_label_area_size(size.y_area())
        .build_cartesian_2d(Seats(seats.to_vec()), y)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(WHITE)
        .bold_line_style(GRID)
        .axis_style(INK)
        .x_labels(seats.len().max(1))
        .y_labels(8)
        .y_label_formatter(y_format)
        .x_desc("seat")
        .y_desc(y_desc)
        .label_style((FONT, LABEL).into_font().color(&INK))
        .axis_desc_style((FONT, DESC).into_font().color(&INK))
        .draw()
        .map_err(err)?;
    Ok(chart)
}

pub(super) fn wins(root: &Area, size: Size, sides: &[Side]) -> Result<(), String> {
    let seats = &sides[0].report.meta.seats;
    let n = seats.len();
    let even = if n == 0 { 0.0 } else { 100.0 / n as f64 };
    let highest = sides
        .iter()
        .flat_map(|s| s.report.wins.iter().map(|w| 100.0 * w.win.high))
        .fold(even, f64::max);
    let top = nice_top(highest * 1.12);
    let mut chart = seat_axes(
        root,
        size,
        seats,
        0.0..top,
        "sole wins (% of finished games)",
        &|y| format!("{y:.0}%"),
    )?;
    let k = sides.len();
    // A rate over each bar where the bars are wide enough for it ("33.3%": about 0.6 of the
    // font's size a character); where not (a phone, many seats), the caption gives the rates.
    let bar = size.plot_width() * 0.7 / (n.max(1) * k) as f64;
    let rates_fit = bar >= 5.0 * 0.6 * INNER / 1.24;
    for (i, side) in sides.iter().enumerate() {
        let colour = COLOURS[i % 2];
        for (p, w) in side.report.wins.iter().enumerate() {
            let (l, r) = bar_span(p as f64, i, k);
            let rate = 100.0 * w.win.rate;
            let (lo, hi) = (100.0 * w.win.low, 100.0 * w.win.high);
            let mid = (l + r) / 2.0;
            let cap = (r - l) / 5.0;
            chart
                .draw_series([Rectangle::new(
                    [(l, 0.0), (r, rate)],
                    colour.mix(0.85).filled(),
                )])
                .map_err(err)?;
            let whisker = INK.stroke_width(2);
            chart
                .draw_series([
                    PathElement::new(vec![(mid, lo), (mid, hi)], whisker),
                    PathElement::new(vec![(mid - cap, lo), (mid + cap, lo)], whisker),
                    PathElement::new(vec![(mid - cap, hi), (mid + cap, hi)], whisker),
                ])
                .map_err(err)?;
            if !rates_fit {
                continue;
            }
            let label = format!("{rate:.1}%");
            chart
                .draw_series([Text::new(
                    label,
                    (mid, hi + top * 0.015),
                    (FONT, INNER)
                        .into_font()
                        .color(&INK)
                        .pos(Pos::new(HPos::Center, VPos::Bottom)),
                )])
                .map_err(err)?;
        }
    }
    chart
        .draw_series([DashedPathElement::new(
            vec![(-0.5, even), (n as f64 - 0.5, even)],
            6,
            4,
            INK.stroke_width(1),
        )])
        .map_err(err)?;
    Ok(())
}

/// A bin width from 1, 2, 5 times a power of ten that cuts `span` into at most `bins` bins.
fn bin_width(span: u64, bins: u64) -> u64 {
    let mut step = 1u64;
    loop {
        for m in [1, 2, 5] {
            if span.div_ceil(m * step) <= bins {
                return m * step;
            }
        }
        step *= 10;
    }
}

pub(super) fn length(root: &Area, size: Size, sides: &[Side]) -> Result<(), String> {
    let lengths: Vec<Vec<u64>> = sides
        .iter()
        .map(|s| s.finished().map(|r| r.decisions).collect())
        .collect();
    let Histogram {
        start,
        width,
        bins,
        beyond,
        longest,
        shares,
    } = histogram(&lengths);
    let highest = shares.iter().flatten().copied().fold(0.0, f64::max);
    let top = nice_top(highest * 1.2);
    // Lengths are whole numbers: bin `b` holds `start + b·w` to `start + (b+1)·w − 1` and is
    // drawn half a decision either side of them, so a tick sits under the value it names.
    let edge = |b: usize| (start + b as u64 * width) as f64 - 0.5;
    let (x0, x1) = (edge(0), edge(bins));
    let mut chart = length_axes(root, size, (x0, x1), top, width)?;
    let overlaid = sides.len() > 1;
    for (i, s) in shares.iter().enumerate() {
        let colour = COLOURS[i % 2];
        let fill = if overlaid { 0.45 } else { 0.85 };
        chart
            .draw_series(
                s.iter()
                    .enumerate()
                    .filter(|(_, v)| **v > 0.0)
                    .map(|(b, v)| {
                        Rectangle::new(
                            [(edge(b), 0.0), (edge(b + 1), *v)],
                            colour.mix(fill).filled(),
                        )
                    }),
            )
            .map_err(err)?;
    }
    // Outlines after every fill, so that neither histogram hides the other's shape.
    for (i, s) in shares.iter().enumerate() {
        let colour = COLOURS[i % 2];
        if overlaid {
            // The outline of each histogram, so the overlap reads as two shapes.
            let mut outline = vec![(x0, 0.0)];
            for (b, v) in s.iter().enumerate() {
                outline.push((edge(b), *v));
                outline.push((edge(b + 1), *v));
            }
            outline.push((x1, 0.0));
            chart
                .draw_series([PathElement::new(outline, colour.stroke_width(2))])
                .map_err(err)?;
        }
    }
    draw_means(&mut chart, &lengths, sides, top, (x0, x1))?;
    if beyond > 0 {
        let games = if beyond == 1 { "game" } else { "games" };
        let note = if size.narrow {
            format!("{beyond} longer not drawn")
        } else {
            format!("{beyond} longer {games}, up to {longest}, not drawn")
        };
        chart
            .draw_series([Text::new(
                note,
                (x1, top * 0.97 - top * 0.08 * sides.len() as f64),
                (FONT, INNER)
                    .into_font()
                    .color(&INK)
                    .pos(Pos::new(HPos::Right, VPos::Top)),
            )])
            .map_err(err)?;
    }
    Ok(())
}

/// Finished games' lengths binned for a histogram, one row of shares per side.
struct Histogram {
    /// The low end of the first bin.
    start: u64,
    /// Decisions per bin.
    width: u64,
    bins: usize,
    /// Games longer than the last bin, not drawn.
    beyond: usize,
    /// The longest game.
    longest: u64,
    /// Each side's share of its finished games in each bin, in percent.
    shares: Vec<Vec<f64>>,
}

/// Bins the lengths of each side's games into at most 60 bins of a round width.
fn histogram(lengths: &[Vec<u64>]) -> Histogram {
    let lo = lengths.iter().flatten().copied().min().unwrap_or(0);
    // The axis ends at the longest 99th percentile of the sides, so that a long tail of a few
    // games does not squeeze the rest into a few bins; the games beyond are counted in a note.
    let hi = lengths
        .iter()
        .filter(|ls| !ls.is_empty())
        .map(|ls| {
            let s = sorted(ls.iter().map(|l| *l as f64).collect());
            percentile(&s, 99.0) as u64
        })
        .max()
        .unwrap_or(1)
        .max(lo);
    let longest = lengths.iter().flatten().copied().max().unwrap_or(hi);
    let beyond = lengths.iter().flatten().filter(|l| **l > hi).count();
    let width = bin_width(hi - lo + 1, 60);
    let start = lo / width * width;
    let bins = ((hi - start) / width + 1) as usize;
    let shares: Vec<Vec<f64>> = lengths
        .iter()
        .map(|ls| {
            let mut counts = vec![0u64; bins];
            for l in ls.iter().filter(|l| **l <= hi) {
                counts[((l - start) / width) as usize] += 1;
            }
            let n = ls.len().max(1) as f64;
            counts.iter().map(|c| 100.0 * *c as f64 / n).collect()
        })
        .collect();
    Histogram {
        start,
        width,
        bins,
        beyond,
        longest,
        shares,
    }
}

/// A chart with numbers on both axes.
type Plane<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The axes of the chart of lengths: decisions per game from `x0` to `x1` in bins of
/// `width`, shares of games up to `top` percent.
fn length_axes<'a, 'b>(
    root: &'a Area<'b>,
    size: Size,
    (x0, x1): (f64, f64),
    top: f64,
    width: u64,
) -> Result<Plane<'a, 'b>, String> {
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .margin_right(28)
        .x_label_area_size(60)
        .y_label_area_size(size.y_area())
        .build_cartesian_2d(x0..x1, 0.0..top)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(WHITE)
        .bold_line_style(GRID)
        .axis_style(INK)
        .x_labels(if size.narrow { 6 } else { 12 })
        .y_labels(8)
        .x_label_formatter(&|x| {
            if (x - x.round()).abs() < 1e-9 {
                format!("{x:.0}")
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|y| format!("{y:.1}%"))
        .x_desc(format!("decisions per game (bins of {width})"))
        .y_desc("share of finished games")
        .label_style((FONT, LABEL).into_font().color(&INK))
        .axis_desc_style((FONT, DESC).into_font().color(&INK))
        .draw()
        .map_err(err)?;
    Ok(chart)
}

/// Draws each side's mean length as a dashed line from 0 to `top`, labelled, the chart
/// running from `x0` to `x1`.
fn draw_means(
    chart: &mut Plane<'_, '_>,
    lengths: &[Vec<u64>],
    sides: &[Side],
    top: f64,
    (x0, x1): (f64, f64),
) -> Result<(), String> {
    for (i, ls) in lengths.iter().enumerate() {
        if ls.is_empty() {
            continue;
        }
        let m = mean(&ls.iter().map(|l| *l as f64).collect::<Vec<_>>());
        let colour = COLOURS[i % 2];
        chart
            .draw_series([DashedPathElement::new(
                vec![(m, 0.0), (m, top)],
                6,
                4,
                colour.stroke_width(2),
            )])
            .map_err(err)?;
        let name = if sides[i].label.is_empty() {
            String::new()
        } else {
            format!("{} ", sides[i].label)
        };
        // Labels one line apart, so two means close together stay readable; on the left of
        // the line when it is near the right end.
        let right = m > x0 + 0.7 * (x1 - x0);
        let gap = 0.008 * (x1 - x0);
        let (x, anchor) = if right {
            (m - gap, HPos::Right)
        } else {
            (m + gap, HPos::Left)
        };
        chart
            .draw_series([Text::new(
                format!("{name}mean {m:.1}"),
                (x, top * (0.97 - 0.08 * i as f64)),
                (FONT, INNER)
                    .into_font()
                    .color(&colour)
                    .pos(Pos::new(anchor, VPos::Top)),
            )])
            .map_err(err)?;
    }
    Ok(())
}

/// Quartiles, 5th and 95th percentiles, median and mean of some scores.
pub(super) struct Spread {
    pub(super) p5: f64,
    pub(super) q1: f64,
    pub(super) median: f64,
    pub(super) q3: f64,
    pub(super) p95: f64,
    pub(super) mean: f64,
}

/// The spread of `values`, or `None` for none.
pub(super) fn spread(values: Vec<f64>) -> Option<Spread> {
    if values.is_empty() {
        return None;
    }
    let s = sorted(values);
    Some(Spread {
        p5: percentile(&s, 5.0),
        q1: percentile(&s, 25.0),
        median: percentile(&s, 50.0),
        q3: percentile(&s, 75.0),
        p95: percentile(&s, 95.0),
        mean: mean(&s),
    })
}

/// The spread of each of the first `n` seats' final scores over `side`'s finished games.
pub(super) fn seat_spreads(side: &Side, n: usize) -> Vec<Option<Spread>> {
    (0..n)
        .map(|p| {
            spread(
                side.finished()
                    .filter_map(|r| r.scores.get(p).map(|v| *v as f64))
                    .collect(),
            )
        })
        .collect()
}

pub(super) fn scores(root: &Area, size: Size, sides: &[Side]) -> Result<(), String> {
    let seats = &sides[0].report.meta.seats;
    let n = seats.len();
    let spreads: Vec<Vec<Option<Spread>>> = sides.iter().map(|s| seat_spreads(s, n)).collect();
    let all = spreads.iter().flatten().flatten();
    let lo = all.clone().map(|s| s.p5).fold(f64::INFINITY, f64::min);
    let hi = all.map(|s| s.p95).fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    let pad = ((hi - lo) * 0.08).max(1.0);
    // From 0 when 0 is near, else from just below the lowest whisker, so boxes far from 0 are
    // not squeezed against the top.
    let near_zero = lo >= 0.0 && lo <= hi - lo;
    let (y0, y1) = (if near_zero { 0.0 } else { lo - pad }, hi + pad);
    let mut chart = seat_axes(root, size, seats, y0..y1, "final score", &|y| {
        format!("{y:.0}")
    })?;
    let k = sides.len();
    for (i, per_seat) in spreads.iter().enumerate() {
        let colour = COLOURS[i % 2];
        for (p, s) in per_seat.iter().enumerate() {
            let Some(s) = s else { continue };
            let (l, r) = bar_span(p as f64, i, k);
            let (l, r) = (l + (r - l) * 0.15, r - (r - l) * 0.15);
            let mid = (l + r) / 2.0;
            let cap = (r - l) / 4.0;
            let line = colour.stroke_width(2);
            chart
                .draw_series([
                    PathElement::new(vec![(mid, s.p5), (mid, s.q1)], line),
                    PathElement::new(vec![(mid, s.q3), (mid, s.p95)], line),
                    PathElement::new(vec![(mid - cap, s.p5), (mid + cap, s.p5)], line),
                    PathElement::new(vec![(mid - cap, s.p95), (mid + cap, s.p95)], line),
                ])
                .map_err(err)?;
            chart
                .draw_series([
                    Rectangle::new([(l, s.q1), (r, s.q3)], colour.mix(0.25).filled()),
                    Rectangle::new([(l, s.q1), (r, s.q3)], colour.stroke_width(2)),
                ])
                .map_err(err)?;
            chart
                .draw_series([PathElement::new(
                    vec![(l, s.median), (r, s.median)],
                    INK.stroke_width(3),
                )])
                .map_err(err)?;
            chart
                .draw_series([Circle::new((mid, s.mean), 4, INK.filled())])
                .map_err(err)?;
        }
    }
    Ok(())
}
