//! The rules that shape an answer from the judge's ratings (docs/judge.md#the-rules), on
//! candidates in their literal order: pure, so that each rule is tested by itself.
use serde::Serialize;

/// One candidate: whether the literal search returned it, and the judge's rating (None:
/// not rated in time).
#[derive(Debug, Clone, Copy)]
pub struct Candidate {
    pub id: i64,
    pub literal: bool,
    pub rating: Option<f64>,
}

/// The cuts on ratings.
#[derive(Debug, Clone, Copy)]
pub struct Cuts {
    pub threshold: f64,
    pub floor: f64,
}

/// A candidate left out, and why.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Dropped {
    pub id: i64,
    pub probability: Option<f64>,
    pub why: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Shaped {
    /// Indexes into the candidates, in answer order.
    pub order: Vec<usize>,
    /// No rating reached the threshold, and weak matches (at or above the floor) are shown.
    pub below_threshold: bool,
    pub dropped: Vec<Dropped>,
}

/// The answer: rated candidates at or above the threshold by probability, else those at
/// or above the floor (`below_threshold`); then the unrated ones the literal search
/// returned, in their literal order; at most `limit`.
pub fn shape(candidates: &[Candidate], cuts: Cuts, limit: usize) -> Shaped {
    let rated = |i: &usize| candidates[*i].rating;
    let all: Vec<usize> = (0..candidates.len()).collect();
    let reached: Vec<usize> = all
        .iter()
        .copied()
        .filter(|i| rated(i).is_some_and(|p| p >= cuts.threshold))
        .collect();
    let below_threshold = reached.is_empty();
    let least = if below_threshold {
        cuts.floor
    } else {
        cuts.threshold
    };
    let mut kept: Vec<usize> = all
        .iter()
        .copied()
        .filter(|i| rated(i).is_some_and(|p| p >= least))
        .collect();
    // Stable: equal ratings keep their literal order.
    kept.sort_by(|a, b| {
        let (pa, pb) = (rated(a).unwrap_or(0.0), rated(b).unwrap_or(0.0));
        pb.total_cmp(&pa)
    });
    let below_threshold = below_threshold && !kept.is_empty();
    let mut dropped = Vec::new();
    for c in candidates {
        let why = match c.rating {
            Some(p) if p < cuts.floor => format!("rated below the floor {}", cuts.floor),
            Some(p) if p < least => {
                format!(
                    "rated below the threshold {}, which others reached",
                    cuts.threshold
                )
            }
            None if !c.literal => {
                "not rated in time, and not among the literal matches".to_string()
            }
            _ => continue,
        };
        dropped.push(Dropped {
            id: c.id,
            probability: c.rating,
            why,
        });
    }
    kept.extend(
        all.iter()
            .copied()
            .filter(|i| candidates[*i].rating.is_none() && candidates[*i].literal),
    );
    kept.truncate(limit);
    Shaped {
        order: kept,
        below_threshold,
        dropped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CUTS: Cuts = Cuts {
        threshold: 0.7,
        floor: 0.2,
    };

    fn c(id: i64, rating: Option<f64>) -> Candidate {
        Candidate {
            id,
            literal: true,
            rating,
        }
    }

    fn ids(cands: &[Candidate], s: &Shaped) -> Vec<i64> {
        s.order.iter().map(|i| cands[*i].id).collect()
    }

    #[test]
    fn matches_by_probability_then_unrated_in_literal_order() {
        let cands = [
            c(1, Some(0.71)),
            c(2, None),
            c(3, Some(0.9)),
            c(4, Some(0.5)),
            c(5, Some(0.1)),
            c(6, None),
            c(7, Some(0.9)),
        ];
        let s = shape(&cands, CUTS, 10);
        assert_eq!(ids(&cands, &s), vec![3, 7, 1, 2, 6]);
        assert!(!s.below_threshold);
        let dropped: Vec<(i64, &str)> = s.dropped.iter().map(|d| (d.id, d.why.as_str())).collect();
        assert_eq!(
            dropped,
            vec![
                (4, "rated below the threshold 0.7, which others reached"),
                (5, "rated below the floor 0.2")
            ]
        );
        assert_eq!(ids(&cands, &shape(&cands, CUTS, 2)), vec![3, 7]);
    }

    #[test]
    fn weak_matches_and_no_match() {
        let cands = [
            c(1, Some(0.3)),
            c(2, Some(0.69)),
            c(3, Some(0.19)),
            c(4, Some(0.2)),
        ];
        let s = shape(&cands, CUTS, 10);
        assert_eq!(ids(&cands, &s), vec![2, 1, 4]);
        assert!(s.below_threshold);
        let none = [c(1, Some(0.0)), c(2, Some(0.1))];
        let s = shape(&none, CUTS, 10);
        assert!(s.order.is_empty() && !s.below_threshold);
        assert_eq!(s.dropped.len(), 2);
    }

    #[test]
    fn unrated_candidates_outside_the_literal_answer_are_left_out() {
        let cands = [
            c(1, None),
            Candidate {
                id: 2,
                literal: false,
                rating: None,
            },
            Candidate {
                id: 3,
                literal: false,
                rating: Some(0.8),
            },
        ];
        let s = shape(&cands, CUTS, 10);
        assert_eq!(ids(&cands, &s), vec![3, 1]);
        assert_eq!(s.dropped[0].id, 2);
    }
}
