//! Small statistics for simulation reports: Wilson score intervals, means, medians and
//! nearest-rank percentiles, and the intervals of differences between two batches (Newcombe's
//! for proportions, Welch's for means). Every function is deterministic in the order of its
//! input.

/// The normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A proportion with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Proportion {
    /// Successes.
    pub count: u64,
    /// Trials.
    pub of: u64,
    /// `count / of` (0 when there were no trials).
    pub rate: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl Proportion {
    /// `count` successes in `of` trials, with the 95% Wilson interval (`[0, 1]` for no trials).
    pub fn new(count: u64, of: u64) -> Proportion {
        let (low, high) = wilson(count, of, Z95);
        Proportion {
            count,
            of,
            rate: if of == 0 {
                0.0
            } else {
                count as f64 / of as f64
            },
            low,
            high,
        }
    }
}

/// The Wilson score interval of `k` successes in `n` trials for the normal quantile `z`.
///
/// `(p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)` with `p = k/n`; `(0, 1)` when `n = 0`.
pub fn wilson(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = p + z2 / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    (
        ((centre - half) / denom).max(0.0),
        ((centre + half) / denom).min(1.0),
    )
}

/// The 95%-style interval of the difference `p_b − p_a` of two independent proportions by
/// Newcombe's hybrid score method (method 10 of Newcombe, *Statistics in Medicine* 1998), built
/// from the two Wilson intervals `[l_a, u_a]`, `[l_b, u_b]` for the quantile `z`:
///
/// `d − √((p_b − l_b)² + (u_a − p_a)²)` to `d + √((u_b − p_b)² + (p_a − l_a)²)`, `d = p_b − p_a`.
///
/// `a` and `b` are `(successes, trials)`; a side with no trials has rate 0 and interval
/// `[0, 1]`, so the difference's interval is wide but defined.
pub fn newcombe(a: (u64, u64), b: (u64, u64), z: f64) -> (f64, f64) {
    let rate = |(k, n): (u64, u64)| if n == 0 { 0.0 } else { k as f64 / n as f64 };
    let (pa, pb) = (rate(a), rate(b));
    let (la, ua) = wilson(a.0, a.1, z);
    let (lb, ub) = wilson(b.0, b.1, z);
    let d = pb - pa;
    (
        d - ((pb - lb).powi(2) + (ua - pa).powi(2)).sqrt(),
        d + ((ub - pb).powi(2) + (pa - la).powi(2)).sqrt(),
    )
}

/// The sample variance (divisor `n − 1`) of the values; `None` for fewer than two.
pub fn variance(values: &[f64]) -> Option<f64> {
    if values.len() < 2 {
        return None;
    }
    let m = mean(values);
    let ss: f64 = values.iter().map(|v| (v - m) * (v - m)).sum();
    Some(ss / (values.len() - 1) as f64)
}

/// The interval of the difference of means `mean(b) − mean(a)` of two independent samples by
/// Welch's normal approximation: `d ± z·√(s_a²/n_a + s_b²/n_b)` with the sample variances. `None`
/// when a sample has fewer than two values (its variance is unknown).
///
/// With thousands of games the normal quantile and Welch–Satterthwaite's t quantile agree to
/// the third decimal; with a handful of games this interval is a little too narrow.
pub fn welch(a: &[f64], b: &[f64], z: f64) -> Option<(f64, f64)> {
    let (va, vb) = (variance(a)?, variance(b)?);
    let d = mean(b) - mean(a);
    let se = (va / a.len() as f64 + vb / b.len() as f64).sqrt();
    Some((d - z * se, d + z * se))
}

/// The mean of the values, summed in order (0 for none).
pub fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.iter().sum::<f64>() / values.len() as f64
}

/// The median of sorted values: the middle one, or the mean of the two middle ones (0 for none).
pub fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => sorted[n / 2],
        _ => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// The nearest-rank `p`-th percentile of sorted values: the smallest value with at least `p`%
/// of the values at or below it (0 for none).
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (p / 100.0 * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Sorts floats that are never NaN.
pub fn sorted(mut values: Vec<f64>) -> Vec<f64> {
    values.sort_by(f64::total_cmp);
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn wilson_matches_hand_computed_values() {
        // 50 of 100: centre 0.5, half-width 1.96·√(0.0025 + 0.000096)/1.0384 = 0.0962.
        let (lo, hi) = wilson(50, 100, Z95);
        assert!(close(lo, 0.4038) && close(hi, 0.5962), "{lo} {hi}");
        // 0 of 10: the interval still has width, [0, z²/n / (1 + z²/n)] = [0, 0.2775].
        let (lo, hi) = wilson(0, 10, Z95);
        assert!(close(lo, 0.0) && close(hi, 0.2775), "{lo} {hi}");
        assert_eq!(wilson(3, 0, Z95), (0.0, 1.0));
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(percentile(&v, 5.0), 1.0);
        assert_eq!(percentile(&v, 95.0), 19.0);
        assert_eq!(percentile(&v, 100.0), 20.0);
        assert_eq!(median(&v), 10.5);
        assert_eq!(median(&[1.0, 2.0, 9.0]), 2.0);
        assert_eq!(mean(&[1.0, 2.0, 6.0]), 3.0);
    }

    #[test]
    fn newcombe_matches_the_published_example() {
        // Newcombe (1998), table II, example (a): 56/70 against 48/80, method 10 gives
        // 0.0524 to 0.3339 for p1 − p2; here a = 48/80, b = 56/70, so d = b − a = +0.2.
        let (lo, hi) = newcombe((48, 80), (56, 70), Z95);
        assert!(close(lo, 0.0524) && close(hi, 0.3339), "{lo} {hi}");
        // Swapping the sides mirrors the interval.
        let (lo2, hi2) = newcombe((56, 70), (48, 80), Z95);
        assert!(close(lo2, -hi) && close(hi2, -lo), "{lo2} {hi2}");
        // Equal proportions: 0 inside, and the same on both sides.
        let (lo, hi) = newcombe((30, 100), (30, 100), Z95);
        assert!(lo < 0.0 && hi > 0.0 && close(lo, -hi));
    }

    #[test]
    fn welch_is_the_normal_interval_of_a_difference_of_means() {
        // a: 1, 2, 3 (mean 2, variance 1); b: 2, 4, 6, 8 (mean 5, variance 20/3).
        // se = √(1/3 + 20/12) = √2, so 3 ± 1.96·1.41421 = [0.2282, 5.7718].
        let (lo, hi) = welch(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0, 8.0], Z95).expect("defined");
        assert!(close(lo, 0.2282) && close(hi, 5.7718), "{lo} {hi}");
        assert_eq!(welch(&[1.0], &[1.0, 2.0], Z95), None);
        assert_eq!(variance(&[4.0, 4.0, 4.0]), Some(0.0));
    }
}
