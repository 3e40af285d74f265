//! Recency-weighted scoring, rank fusion and the limit rule (docs/functions.md).

pub const DEFAULT_HALF_LIFE_DAYS: f64 = 90.0;
pub const DEFAULT_RECENCY_WEIGHT: f64 = 0.3;
pub const DEFAULT_RRF_K: f64 = 60.0;

/// `0.5 ^ (age_days / half_life_days)`.
pub fn decay(age_days: f64, half_life_days: f64) -> f64 {
    0.5_f64.powf(age_days / half_life_days)
}

/// `-bm25 * ((1 - weight) + weight * decay)`. `decay` is `None` for an undated item,
/// read as infinitely old (factor `1 - weight`).
pub fn score(bm25: f64, decay: Option<f64>, recency_weight: f64) -> f64 {
    let factor = (1.0 - recency_weight) + recency_weight * decay.unwrap_or(0.0);
    let s = -bm25 * factor;
    // -0.0 reads oddly in SQL output; a non-matching item scores a plain 0.
    if s == 0.0 {
        0.0
    } else {
        s
    }
}

/// Reciprocal rank fusion: `weight / (k + rank)`.
pub fn rrf(rank: f64, k: f64, weight: f64) -> f64 {
    weight / (k + rank)
}

/// NULL, zero or negative -> default; above max -> max.
pub fn limit(requested: Option<i64>, default: i64, max: i64) -> i64 {
    match requested {
        Some(n) if n > 0 => n.min(max),
        _ => default.min(max),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decay_halves_every_half_life() {
        assert_eq!(decay(0.0, 90.0), 1.0);
        assert_eq!(decay(90.0, 90.0), 0.5);
        assert_eq!(decay(180.0, 90.0), 0.25);
        assert!((decay(45.0, 90.0) - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-12);
    }

    #[test]
    fn score_formula() {
        // relevance 10, brand new: 10 * (0.7 + 0.3 * 1) = 10
        assert_eq!(score(-10.0, Some(1.0), 0.3), 10.0);
        // relevance 10, one half-life old: 10 * (0.7 + 0.15) = 8.5
        assert!((score(-10.0, Some(0.5), 0.3) - 8.5).abs() < 1e-12);
        // Undated: 10 * 0.7
        assert!((score(-10.0, None, 0.3) - 7.0).abs() < 1e-12);
        // Weight 0 is pure relevance.
        assert_eq!(score(-4.2, Some(0.01), 0.0), 4.2);
        assert_eq!(score(-4.2, None, 0.0), 4.2);
    }

    #[test]
    fn non_matching_scores_zero_whatever_its_age() {
        for d in [None, Some(0.0), Some(0.3), Some(1.0)] {
            let s = score(0.0, d, 0.3);
            assert_eq!(s, 0.0);
            assert!(s.is_sign_positive());
        }
    }

    #[test]
    fn older_beats_new_past_one_over_point_seven() {
        // A brand-new item of relevance 1 scores 1. An infinitely old item scores
        // relevance * 0.7, so it wins exactly when its relevance exceeds 1/0.7.
        let new = score(-1.0, Some(1.0), 0.3);
        let old_win = score(-(1.0 / 0.7) * 1.001, Some(0.0), 0.3);
        let old_lose = score(-(1.0 / 0.7) * 0.999, Some(0.0), 0.3);
        assert!(old_win > new);
        assert!(old_lose < new);
    }

    #[test]
    fn rrf_formula() {
        assert_eq!(rrf(1.0, 60.0, 1.0), 1.0 / 61.0);
        assert_eq!(rrf(10.0, 0.0, 2.0), 0.2);
    }

    #[test]
    fn limit_rule() {
        assert_eq!(limit(None, 10, 50), 10);
        assert_eq!(limit(Some(0), 10, 50), 10);
        assert_eq!(limit(Some(-5), 10, 50), 10);
        assert_eq!(limit(Some(7), 10, 50), 7);
        assert_eq!(limit(Some(50), 10, 50), 50);
        assert_eq!(limit(Some(51), 10, 50), 50);
        assert_eq!(limit(None, 80, 50), 50);
    }
}
