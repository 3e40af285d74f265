//! Retrieval metrics over ranked answers (binary relevance): Recall@k, reciprocal rank,
//! nDCG@k, and must-not violations.
use serde::Serialize;

/// One case's outcome: where each expected id appeared (1-based), and forbidden ids seen.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub id: String,
    pub kind: &'static str,
    pub tags: Vec<String>,
    /// (expected id, its rank or None when not returned)
    pub ranks: Vec<(i64, Option<usize>)>,
    /// (must-not id, the rank at which it appeared within the first 10)
    pub violations: Vec<(i64, usize)>,
}

impl Outcome {
    /// Fraction of the expected ids found within the first k.
    pub fn recall_at(&self, k: usize) -> Option<f64> {
        if self.ranks.is_empty() {
            return None;
        }
        let found = self
            .ranks
            .iter()
            .filter(|(_, r)| r.is_some_and(|r| r <= k))
            .count();
        Some(found as f64 / self.ranks.len() as f64)
    }

    /// 1 / the rank of the first expected id found, 0 when none is.
    pub fn reciprocal_rank(&self) -> Option<f64> {
        if self.ranks.is_empty() {
            return None;
        }
        Some(
            self.ranks
                .iter()
                .filter_map(|(_, r)| *r)
                .min()
                .map_or(0.0, |r| 1.0 / r as f64),
        )
    }

    /// Normalised discounted cumulative gain within the first k.
    pub fn ndcg_at(&self, k: usize) -> Option<f64> {
        if self.ranks.is_empty() {
            return None;
        }
        let gain = |rank: usize| 1.0 / ((rank + 1) as f64).log2();
        let dcg: f64 = self
            .ranks
            .iter()
            .filter_map(|(_, r)| *r)
            .filter(|r| *r <= k)
            .map(gain)
            .sum();
        let ideal: f64 = (1..=self.ranks.len().min(k)).map(gain).sum();
        Some(dcg / ideal)
    }
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Summary {
    pub cases: usize,
    pub recall_at_1: f64,
    pub recall_at_5: f64,
    pub recall_at_10: f64,
    pub mrr: f64,
    pub ndcg_at_10: f64,
    pub must_not_violations: usize,
}

fn mean(values: impl Iterator<Item = Option<f64>>) -> f64 {
    let v: Vec<f64> = values.flatten().collect();
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

pub fn summarize<'a>(outcomes: impl Iterator<Item = &'a Outcome> + Clone) -> Summary {
    Summary {
        cases: outcomes.clone().count(),
        recall_at_1: mean(outcomes.clone().map(|o| o.recall_at(1))),
        recall_at_5: mean(outcomes.clone().map(|o| o.recall_at(5))),
        recall_at_10: mean(outcomes.clone().map(|o| o.recall_at(10))),
        mrr: mean(outcomes.clone().map(|o| o.reciprocal_rank())),
        ndcg_at_10: mean(outcomes.clone().map(|o| o.ndcg_at(10))),
        must_not_violations: outcomes.map(|o| o.violations.len()).sum(),
    }
}

/// Where each expected id is in `answer` (ids in rank order), and the forbidden ids in
/// its first 10.
pub fn outcome(
    id: String,
    kind: &'static str,
    tags: Vec<String>,
    answer: &[i64],
    expect: &[i64],
    must_not: &[i64],
) -> Outcome {
    let rank = |x: i64| answer.iter().position(|a| *a == x).map(|p| p + 1);
    Outcome {
        id,
        kind,
        tags,
        ranks: expect.iter().map(|e| (*e, rank(*e))).collect(),
        violations: must_not
            .iter()
            .filter_map(|m| rank(*m).filter(|r| *r <= 10).map(|r| (*m, r)))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(answer: &[i64], expect: &[i64], must_not: &[i64]) -> Outcome {
        outcome("c".into(), "search", vec![], answer, expect, must_not)
    }

    #[test]
    fn per_case_metrics_by_hand() {
        // Expected 7 and 9; the answer has 9 at rank 2 and 7 at rank 6.
        let c = o(&[1, 9, 2, 3, 4, 7, 5], &[7, 9], &[]);
        assert_eq!(c.recall_at(1), Some(0.0));
        assert_eq!(c.recall_at(5), Some(0.5));
        assert_eq!(c.recall_at(10), Some(1.0));
        assert_eq!(c.reciprocal_rank(), Some(0.5));
        // DCG = 1/log2(3) + 1/log2(7); IDCG = 1/log2(2) + 1/log2(3).
        let dcg = 1.0 / 3f64.log2() + 1.0 / 7f64.log2();
        let idcg = 1.0 + 1.0 / 3f64.log2();
        assert!((c.ndcg_at(10).unwrap() - dcg / idcg).abs() < 1e-12);
        // Not found at all.
        let c = o(&[1, 2], &[7], &[]);
        assert_eq!(
            (c.recall_at(10), c.reciprocal_rank(), c.ndcg_at(10)),
            (Some(0.0), Some(0.0), Some(0.0))
        );
        // Must-not only: no recall, but violations count within the first 10.
        let mut answer: Vec<i64> = (100..120).collect();
        answer[3] = 5;
        answer[15] = 6;
        let c = o(&answer, &[], &[5, 6, 8]);
        assert_eq!(c.recall_at(10), None);
        assert_eq!(c.violations, vec![(5, 4)]);
    }

    #[test]
    fn summaries_average_cases_with_expectations() {
        let cases = [
            o(&[1], &[1], &[]),
            o(&[2, 1], &[1], &[2]),
            o(&[3], &[], &[3]),
        ];
        let s = summarize(cases.iter());
        assert_eq!(s.cases, 3);
        assert_eq!(s.recall_at_1, 0.5);
        assert_eq!(s.recall_at_5, 1.0);
        assert_eq!(s.mrr, 0.75);
        assert_eq!(s.must_not_violations, 2);
    }
}
