//! Small statistics for simulation reports: Wilson score intervals, means, medians and
//! nearest-rank percentiles. Every function is deterministic in the order of its input.

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
}
