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

/// A value's place between the least and the best of its list, from 0 to 1: how the
/// convex fusion puts a literal score and a similarity on one scale. Below the least
/// (or outside the list, read as the least) it is 0; a list whose values are all equal
/// puts every value of it at 1.
pub fn unit(value: f64, least: f64, best: f64) -> f64 {
    if best <= least {
        return if value >= best { 1.0 } else { 0.0 };
    }
    ((value - least) / (best - least)).clamp(0.0, 1.0)
}

/// Convex fusion of two scores on the scale of `unit`: `(1 - share) * literal + share *
/// near`, the vector list having `share` of the say (0 to 1).
pub fn convex(literal: f64, near: f64, share: f64) -> f64 {
    (1.0 - share) * literal + share * near
}

/// An item's convex fusion score from its two lists: its literal score over the best
/// one, and its similarity placed between the least and the best of the vector list,
/// combined with `share` (`convex`). Outside a list (None) an item gets 0 of it.
pub fn fuse(
    literal: Option<f64>,
    best_literal: f64,
    similarity: Option<f64>,
    least: f64,
    best: f64,
    share: f64,
) -> f64 {
    let literal = literal.map_or(0.0, |l| unit(l, 0.0, best_literal));
    let near = similarity.map_or(0.0, |s| unit(s, least, best));
    convex(literal, near, share)
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
    fn unit_places_a_value_in_its_list() {
        // Similarities 0.2 (the least) to 0.6 (the best): 0.5 is three quarters up.
        assert!((unit(0.5, 0.2, 0.6) - 0.75).abs() < 1e-12);
        assert_eq!(unit(0.6, 0.2, 0.6), 1.0);
        assert_eq!(unit(0.2, 0.2, 0.6), 0.0);
        // Outside the list: below its least, nothing.
        assert_eq!(unit(0.1, 0.2, 0.6), 0.0);
        assert_eq!(unit(0.7, 0.2, 0.6), 1.0);
        // A literal score over the best one (least 0): 3 of 12 is 0.25.
        assert_eq!(unit(3.0, 0.0, 12.0), 0.25);
        // A list of one value, or of equal ones: each is the best.
        assert_eq!(unit(0.4, 0.4, 0.4), 1.0);
        assert_eq!(unit(0.3, 0.4, 0.4), 0.0);
    }

    #[test]
    fn convex_formula() {
        // A literal item at 0.75 of the best, at 0.5 of the vector list's span, the
        // vector list having a fifth of the say: 0.8 * 0.75 + 0.2 * 0.5 = 0.7.
        assert!((convex(0.75, 0.5, 0.2) - 0.7).abs() < 1e-12);
        // Share 0 is the literal score; share 1 the nearness.
        assert_eq!(convex(0.75, 0.5, 0.0), 0.75);
        assert_eq!(convex(0.75, 0.5, 1.0), 0.5);
        // An item of the vector list only (literal 0): share * near.
        assert!((convex(0.0, 0.9, 0.2) - 0.18).abs() < 1e-12);
    }

    #[test]
    fn fuse_from_the_two_lists() {
        // Literal 6 of a best 8 (0.75), similarity 0.5 between 0.2 and 0.6 (0.75),
        // share 0.2: 0.8 * 0.75 + 0.2 * 0.75 = 0.75.
        assert!((fuse(Some(6.0), 8.0, Some(0.5), 0.2, 0.6, 0.2) - 0.75).abs() < 1e-12);
        // Literal 2 of 8 (0.25), the nearest item (1): 0.8 * 0.25 + 0.2 = 0.4.
        assert!((fuse(Some(2.0), 8.0, Some(0.6), 0.2, 0.6, 0.2) - 0.4).abs() < 1e-12);
        // Outside the vector list: the literal part alone.
        assert!((fuse(Some(8.0), 8.0, None, 0.2, 0.6, 0.2) - 0.8).abs() < 1e-12);
        // Outside the literal list: the vector part alone, 0.2 * (0.3 - 0.2) / 0.4.
        assert!((fuse(None, 8.0, Some(0.3), 0.2, 0.6, 0.2) - 0.05).abs() < 1e-12);
        // No literal list at all (best 0): nothing of it.
        assert_eq!(fuse(None, 0.0, Some(0.6), 0.2, 0.6, 0.5), 0.5);
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
