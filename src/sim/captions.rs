//! What each chart of `meeple sim --html` shows, in words with its main numbers: the caption
//! under the chart, which a screen reader reads for the picture (`aria-describedby`) and which
//! gives the numbers a phone's narrow chart leaves out.

use super::charts::seat_spreads;
use super::html::Side;

/// A number as the report prints it: whole numbers without a decimal point.
fn num(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// `Intro: what.` for one batch, or `Intro. A (title): what. B (title): what.` for two.
fn sentences(intro: &str, sides: &[Side], each: impl Fn(&Side) -> String) -> String {
    match sides {
        [one] => format!("{intro}: {}.", each(one)),
        _ => {
            let mut out = format!("{intro}.");
            for s in sides {
                out.push_str(&format!(" {} ({}): {}.", s.label, s.title(), each(s)));
            }
            out
        }
    }
}

/// The win-rate chart: each seat's sole wins with its 95% interval, and the even share.
pub fn wins(sides: &[Side]) -> String {
    let seats = sides.first().map_or(0, |s| s.report.meta.seats.len());
    let rates = sentences("Sole wins per seat", sides, |s| {
        if s.report.finished == 0 {
            return "no game finished".into();
        }
        let each: Vec<String> = s
            .report
            .wins
            .iter()
            .map(|w| {
                format!(
                    "{} {:.1}% (95% interval {:.1}% to {:.1}%)",
                    w.seat,
                    100.0 * w.win.rate,
                    100.0 * w.win.low,
                    100.0 * w.win.high
                )
            })
            .collect();
        format!(
            "of {} finished games, {}",
            s.report.finished,
            each.join("; ")
        )
    });
    format!(
        "{rates} An even share is {:.1}%.",
        100.0 / seats.max(1) as f64
    )
}

/// The length chart: the range, median, mean and middle 90% of the finished games' decisions.
pub fn length(sides: &[Side]) -> String {
    sentences("Game length", sides, |s| {
        let l = &s.report.length;
        match s.report.finished {
            0 => "no game finished".into(),
            1 => format!("the one finished game took {} decisions", l.max),
            f => format!(
                "the {f} finished games took {} to {} decisions, median {}, mean {}, \
                 90% of them between {} and {}",
                l.min,
                l.max,
                num(l.median),
                num(l.mean),
                num(l.p5),
                num(l.p95)
            ),
        }
    })
}

/// The score chart: each seat's median, middle half and mean.
pub fn scores(sides: &[Side]) -> String {
    sentences("Final scores of the finished games", sides, |s| {
        let seats = &s.report.meta.seats;
        let each: Vec<String> = seats
            .iter()
            .zip(seat_spreads(s, seats.len()))
            .filter_map(|(seat, sp)| {
                sp.map(|sp| {
                    format!(
                        "{seat} median {} (middle half {} to {}), mean {}",
                        num(sp.median),
                        num(sp.q1),
                        num(sp.q3),
                        num(sp.mean)
                    )
                })
            })
            .collect();
        if each.is_empty() {
            "no game finished".into()
        } else {
            each.join("; ")
        }
    })
}
